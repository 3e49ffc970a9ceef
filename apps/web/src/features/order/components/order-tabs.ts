import type { Order, OrderStatus } from '@numisma/contracts/orders'
import { orderGroup, type OrderGroup } from '@numisma/domain/order-status'

/** Order groups of spec §4 as they appear in tabs and in links from the user centre. */
export const ORDER_TABS = ['all', 'pay', 'ship', 'receive', 'done'] as const
export type OrderTab = (typeof ORDER_TABS)[number]

export function parseOrderTab(value: string | null): OrderTab {
  return ORDER_TABS.find((k) => k === value) ?? 'all'
}

const TAB_OF_GROUP: Record<OrderGroup, Exclude<OrderTab, 'all'>> = {
  pendingPayment: 'pay',
  waitingToShip: 'ship',
  waitingToReceive: 'receive',
  completed: 'done',
}

/**
 * The group (tab) an order status is filed under: the domain's rule (packages/domain
 * order-status.ts `orderGroup`), the one the server's group reads and the user centre's counters
 * use — paid and delivery applied both wait to ship (the goods are still in storage), an overdue
 * won lot still waits for payment; a cancelled order shows only under 全部.
 */
export function orderGroupOf(status: OrderStatus): Exclude<OrderTab, 'all'> | null {
  const group = orderGroup(status)
  return group === null ? null : TAB_OF_GROUP[group]
}

/** The orders a tab lists, from the caller's whole list (newest first, as the server sends it). */
export function ordersOfTab(tab: OrderTab, orders: readonly Order[]): Order[] {
  return tab === 'all' ? [...orders] : orders.filter((order) => orderGroupOf(order.status) === tab)
}

/** Only an unpaid mall order may be cancelled by its buyer (DESIGN §6). */
export function isCancellable(order: Pick<Order, 'kind' | 'status'>): boolean {
  return order.kind === 'mall' && order.status === 'pending_payment'
}
