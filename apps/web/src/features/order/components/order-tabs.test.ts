import { ORDER_STATUSES, type Order } from '@numisma/contracts/orders'
import { describe, expect, it } from 'vitest'
import { isCancellable, orderGroupOf, ordersOfTab, parseOrderTab } from './order-tabs'

const buildOrder = (overrides: Partial<Order> = {}): Order => ({
  id: 1,
  kind: 'mall',
  status: 'pending_payment',
  items: [{ title: '1980 长城币', productNo: 'M100001', quantity: 1, price: 10_000, image: '' }],
  goods: 10_000,
  fee: 0,
  discount: 0,
  total: 10_000,
  userCouponId: null,
  payMethod: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  dueAt: '2030-01-01T00:30:00.000Z',
  paidAt: null,
  cancelledAt: null,
  ...overrides,
})

describe('order tabs', () => {
  it('reads a tab from the URL, 全部 for anything unknown', () => {
    expect(parseOrderTab('pay')).toBe('pay')
    expect(parseOrderTab('PAY')).toBe('all')
    expect(parseOrderTab(null)).toBe('all')
  })

  it('files every status under the domain’s group, an overdue lot as unpaid, cancelled under none', () => {
    const groups = Object.fromEntries(ORDER_STATUSES.map((s) => [s, orderGroupOf(s)]))
    expect(groups).toEqual({
      pending_payment: 'pay',
      paid: 'ship',
      delivery_applied: 'ship',
      shipped: 'receive',
      completed: 'done',
      cancelled: null,
      overdue: 'pay',
    })
  })

  it('lists a tab’s orders in the server’s order; 全部 lists all', () => {
    const orders = ORDER_STATUSES.map((status, i) => buildOrder({ id: i + 1, status }))
    expect(ordersOfTab('all', orders).map((o) => o.id)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(ordersOfTab('ship', orders).map((o) => o.status)).toEqual(['paid', 'delivery_applied'])
    expect(ordersOfTab('done', orders).map((o) => o.status)).toEqual(['completed'])
    expect(ordersOfTab('pay', [])).toEqual([])
  })

  it('lets the buyer cancel only an unpaid mall order', () => {
    expect(isCancellable(buildOrder())).toBe(true)
    expect(isCancellable(buildOrder({ kind: 'auction' }))).toBe(false)
    expect(isCancellable(buildOrder({ status: 'paid' }))).toBe(false)
    expect(isCancellable(buildOrder({ status: 'cancelled' }))).toBe(false)
  })
})
