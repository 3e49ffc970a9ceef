import type { Order } from '@numisma/contracts/orders'
import { describe, expect, it } from 'vitest'
import { remittanceDeadline } from './remittance-deadline'

const buildOrder = (overrides: Partial<Order> = {}): Order => ({
  id: 41,
  kind: 'mall',
  status: 'pending_payment',
  items: [{ title: '1980 长城币', productNo: 'M100001', quantity: 1, price: 10_000, image: '' }],
  goods: 10_000,
  fee: 0,
  discount: 0,
  total: 10_000,
  userCouponId: null,
  payMethod: 'remittance',
  createdAt: '2030-01-01T00:00:00.000Z',
  dueAt: '2030-01-04T00:10:00.000Z',
  paidAt: null,
  cancelledAt: null,
  ...overrides,
})

describe('remittanceDeadline', () => {
  it('is the earliest due time of the named mall orders held for a remittance', () => {
    const orders = [
      buildOrder({ id: 1, dueAt: '2030-01-04T08:00:00.000Z' }),
      buildOrder({ id: 2, dueAt: '2030-01-04T02:00:00.000Z' }),
      buildOrder({ id: 3, dueAt: '2030-01-03T00:00:00.000Z' }),
    ]
    expect(remittanceDeadline(orders, [1, 2])).toBe('2030-01-04T02:00:00.000Z')
  })

  it('sets none for won lots, orders not chosen for remittance, or orders no longer unpaid', () => {
    const orders = [
      buildOrder({ id: 1, kind: 'auction' }),
      buildOrder({ id: 2, payMethod: null }),
      buildOrder({ id: 3, status: 'cancelled' }),
      buildOrder({ id: 4, dueAt: null }),
    ]
    expect(remittanceDeadline(orders, [1, 2, 3, 4])).toBeNull()
    expect(remittanceDeadline([], [1])).toBeNull()
  })
})
