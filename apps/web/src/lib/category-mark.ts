import type { Category } from '@numisma/contracts/catalog'

/** Picture styles for icon keywords; a one- or two-character icon is shown as it is. */
const MARKS: Record<string, string> = {
  ancient: '古',
  machine: '机',
  banknote: '钞',
  commemorative: '金',
  graded: '评',
  stamps: '邮',
  medal: '章',
  foreign: '外',
}

const STYLE_BY_MARK: Record<string, string> = Object.fromEntries(
  Object.entries(MARKS).map(([key, mark]) => [mark, key]),
)

/** The mark (text on the coin) and the picture style of a category's icon. */
export function categoryMark(category: Pick<Category, 'icon' | 'name'>): {
  mark: string
  style: string
} {
  const icon = category.icon.trim()
  const keyword = MARKS[icon.toLowerCase()]
  if (keyword) return { mark: keyword, style: icon.toLowerCase() }
  const mark = icon !== '' && icon.length <= 2 ? icon : firstChar(category.name)
  return { mark, style: STYLE_BY_MARK[mark] ?? 'default' }
}

/** The first character (code point) of a text, '' when empty. */
export function firstChar(text: string): string {
  const code = text.codePointAt(0)
  return code === undefined ? '' : String.fromCodePoint(code)
}
