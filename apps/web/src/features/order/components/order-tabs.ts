import type { Order, OrderStatus } from '@numisma/contracts/orders'

/** Order groups of spec §4 as they appear in tabs and in links from the user centre. */
export const ORDER_TABS = ['all', 'pay', 'ship', 'receive', 'done'] as const
export type OrderTab = (typeof ORDER_TABS)[number]

export function parseOrderTab(value: string | null): OrderTab {
  return ORDER_TABS.find((k) => k === value) ?? 'all'
}

/**
 * The group (tab) an order status is filed under (DESIGN §6): paid and delivery applied both wait
 * to ship (the goods are still in storage); cancelled and overdue orders show only under 全部.
 */
export function orderGroupOf(status: OrderStatus): Exclude<OrderTab, 'all'> | null {
  switch (status) {
    case 'pending_payment':
      return 'pay'
    case 'paid':
    case 'delivery_applied':
      return 'ship'
    case 'shipped':
      return 'receive'
    case 'completed':
      return 'done'
    case 'cancelled':
    case 'overdue':
      return null
  }
}

/** The orders a tab lists, from the caller's whole list (newest first, as the server sends it). */
export function ordersOfTab(tab: OrderTab, orders: readonly Order[]): Order[] {
  return tab === 'all' ? [...orders] : orders.filter((order) => orderGroupOf(order.status) === tab)
}

/** Only an unpaid mall order may be cancelled by its buyer (DESIGN §6). */
export function isCancellable(order: Pick<Order, 'kind' | 'status'>): boolean {
  return order.kind === 'mall' && order.status === 'pending_payment'
}
