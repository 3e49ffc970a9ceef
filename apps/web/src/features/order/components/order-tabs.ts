/** Order groups of spec §4 as they appear in tabs and in links from the user centre. */
export const ORDER_TABS = ['all', 'pay', 'ship', 'receive', 'done'] as const
export type OrderTab = (typeof ORDER_TABS)[number]

export function parseOrderTab(value: string | null): OrderTab {
  return ORDER_TABS.find((k) => k === value) ?? 'all'
}
