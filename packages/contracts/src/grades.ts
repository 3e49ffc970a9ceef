import type { Locale } from './errors'

/** Condition grades of spec §3. Codes 0, 10, 20, 40, 50 and anything unknown mean "none". */
const NAMES: Record<number, { zh: string; en: string }> = {}

function grade(codes: number[], zh: string, en: string): void {
  for (const code of codes) NAMES[code] = { zh, en }
}

grade([1, 14, 42], '极美', 'very beautiful')
grade([2], '完整', 'complete')
grade([3], '上品', 'upper')
grade([4], '中上品', 'mid-upper')
grade([5], '中品', 'middle')
grade([7], '下品', 'poor')
grade([8], '修补', 'repaired')
grade([11], '全新', 'completely unused')
grade([12, 41], '未使用', 'unused')
grade([13], '近未使用', 'nearly unused')
grade([15, 43], '美品', 'beautiful')
grade([16, 44], '流通品', 'circulated')
grade([21], '完美', 'flawless')
grade([22], '十品', 'ten')
grade([23], '九五品', '9.5')
grade([24], '九品', 'nine')
grade([25], '八五品', '8.5')
grade([26], '八品', 'eight')
grade([27], '七品', 'seven')
grade([28], '六品', 'six')
grade([29], '五品', 'five')
grade([30], '普品', 'ordinary')
grade([51, 52], '评级币', 'graded coin')

export const GRADE_NONE = { zh: '无', en: 'none' } as const

/** Every code that has a name of its own (for pickers and tests). */
export const NAMED_GRADE_CODES: readonly number[] = Object.keys(NAMES).map(Number)

export function gradeName(code: number | string | null | undefined, locale: Locale = 'zh'): string {
  const n = typeof code === 'string' && code.trim() !== '' ? Number(code) : code
  const entry = typeof n === 'number' && Number.isInteger(n) ? NAMES[n] : undefined
  return (entry ?? GRADE_NONE)[locale]
}

/** Whether a code shows a grade at all (a badge is hidden for "none"). */
export function hasGrade(code: number | string | null | undefined): boolean {
  return gradeName(code, 'en') !== GRADE_NONE.en
}
