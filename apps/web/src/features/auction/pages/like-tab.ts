/** The tabs of /myLike: watched lots and watched mall items. */
export const LIKE_TABS = ['lots', 'mall'] as const
export type LikeTab = (typeof LIKE_TABS)[number]

export function parseLikeTab(value: string | null): LikeTab | undefined {
  return LIKE_TABS.find((tab) => tab === value)
}

/** A watch list as far as choosing a tab goes: its rows, `failed`, or undefined while it loads. */
export type LoadedList = readonly unknown[] | 'failed' | undefined

/**
 * The tab /myLike opens on when the link names none: the mall's when the buyer watches mall items
 * but no lots (an empty 拍品 tab would hide what they watch), else the lots'. Undefined until both
 * lists have answered, so the page does not open on one tab and jump to the other.
 */
export function defaultLikeTab(lots: LoadedList, mall: LoadedList): LikeTab | undefined {
  if (lots === undefined || mall === undefined) return undefined
  const noLots = lots !== 'failed' && lots.length === 0
  const someMall = mall !== 'failed' && mall.length > 0
  return noLots && someMall ? 'mall' : 'lots'
}
