import type { UserCouponRecord } from '@numisma/contracts/mall'
import type { Order } from '@numisma/contracts/orders'
import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api-client'
import { getMallItemQueryOptions } from '../mall/get-mall-item'
import { cancelOrder, cancelOrderMutationOptions } from './cancel-order'
import { getAllOrders, getAllOrdersQueryOptions } from './get-all-orders'
import { getCouponHistory, getCouponHistoryQueryOptions } from './get-coupon-history'
import { getPendingOrders, getPendingOrdersQueryOptions } from './get-pending-orders'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from './query-keys'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const buildOrder = (overrides: Partial<Order> = {}): Order => ({
  id: 41,
  kind: 'mall',
  status: 'pending_payment',
  items: [{ title: '1980 长城币', productNo: 'M100001', quantity: 2, price: 10_000, image: '' }],
  goods: 20_000,
  fee: 0,
  discount: 1_000,
  total: 19_000,
  userCouponId: 5,
  payMethod: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  dueAt: '2030-01-01T00:30:00.000Z',
  paidAt: null,
  cancelledAt: null,
  ...overrides,
})

const buildRecord = (overrides: Partial<UserCouponRecord> = {}): UserCouponRecord => ({
  userCouponId: 5,
  couponId: 3,
  title: '满100减10',
  kind: 'amount',
  threshold: 10_000,
  amount: 1_000,
  percent: null,
  cap: null,
  startsAt: '2030-01-01T00:00:00.000Z',
  endsAt: '2030-02-01T00:00:00.000Z',
  scope: 'all',
  status: 'locked',
  orderId: 41,
  receivedAt: '2030-01-01T00:00:00.000Z',
  usedAt: null,
  ...overrides,
})

describe('order reads', () => {
  it('lists pending orders and every order with the list default error', async () => {
    server.reply = [buildOrder()]
    await expect(getPendingOrders()).resolves.toEqual([buildOrder()])
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/order/query',
      defaultError: 'GET_LIST_FAILED',
    })
    server.reply = [buildOrder({ status: 'cancelled' })]
    await expect(getAllOrders()).resolves.toHaveLength(1)
    expect(lastCall()).toMatchObject({ path: '/user/order/all', defaultError: 'GET_LIST_FAILED' })
  })

  it('refuses an order whose shape is not the contract’s', async () => {
    server.reply = [{ ...buildOrder(), status: 'lost' }]
    await expect(getPendingOrders()).rejects.toThrow()
    server.reply = { data: [] }
    await expect(getAllOrders()).rejects.toThrow()
  })

  it('keys both lists under the orders root, apart from each other', () => {
    const pending = getPendingOrdersQueryOptions().queryKey
    const all = getAllOrdersQueryOptions().queryKey
    expect(pending.slice(0, ORDERS_KEY.length)).toEqual([...ORDERS_KEY])
    expect(all.slice(0, ORDERS_KEY.length)).toEqual([...ORDERS_KEY])
    expect(pending).not.toEqual(all)
  })
})

describe('coupon history', () => {
  it('asks for one tab’s state and keys it under the coupons root', async () => {
    server.reply = [buildRecord()]
    await expect(getCouponHistory('used')).resolves.toEqual([buildRecord()])
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/pay/getUserCouponsHistory',
      query: { state: 'used' },
      defaultError: 'GET_LIST_FAILED',
    })
    expect(getCouponHistoryQueryOptions('used').queryKey).toEqual([
      ...COUPONS_KEY,
      'history',
      'used',
    ])
    server.reply = [buildRecord({ status: 'gone' as never })]
    await expect(getCouponHistory('used')).rejects.toThrow()
  })
})

describe('cancelling an order', () => {
  // The item's detail as a plain key: only whether it goes stale matters here, not its shape.
  const itemKey = (productNo: string): unknown[] => [...getMallItemQueryOptions(productNo).queryKey]
  const stale = (queryClient: QueryClient, queryKey: readonly unknown[]) =>
    queryClient.getQueryState(queryKey)?.isInvalidated

  const seed = (queryClient: QueryClient) => {
    queryClient.setQueryData(getPendingOrdersQueryOptions().queryKey, [buildOrder()])
    queryClient.setQueryData(getAllOrdersQueryOptions().queryKey, [buildOrder()])
    queryClient.setQueryData(getCouponHistoryQueryOptions('used').queryKey, [buildRecord()])
    queryClient.setQueryData(USER_STATISTICS_KEY, { counts: { pendingPayment: 1 } })
    queryClient.setQueryData(itemKey('M100001'), { stock: 3 })
    queryClient.setQueryData(itemKey('M100002'), { stock: 9 })
  }

  it('is a GET with the order id and an operation-failed default', async () => {
    server.reply = { orderId: 41, status: 'cancelled' }
    await expect(cancelOrder(41)).resolves.toEqual({ orderId: 41, status: 'cancelled' })
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/order/cancel',
      query: { orderId: 41 },
      defaultError: 'OPERATION_FAILED',
    })
    expect(lastCall().method ?? 'GET').toBe('GET')
  })

  it('refreshes the order lists, coupons, user counters and the stock of its items only', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.reply = { orderId: 41, status: 'cancelled' }
    const cancel = new MutationObserver(queryClient, cancelOrderMutationOptions(queryClient))
    await cancel.mutate(buildOrder())
    expect(stale(queryClient, getPendingOrdersQueryOptions().queryKey)).toBe(true)
    expect(stale(queryClient, getAllOrdersQueryOptions().queryKey)).toBe(true)
    expect(stale(queryClient, getCouponHistoryQueryOptions('used').queryKey)).toBe(true)
    expect(stale(queryClient, USER_STATISTICS_KEY)).toBe(true)
    expect(stale(queryClient, itemKey('M100001'))).toBe(true)
    expect(stale(queryClient, itemKey('M100002'))).toBe(false)
  })

  it('refreshes after a refusal (the list was stale), not after a call that never left', async () => {
    const refused = new QueryClient()
    seed(refused)
    server.failure = new ApiError('ORDER_NOT_CANCELLABLE', 409, 'cannot')
    const cancel = new MutationObserver(refused, cancelOrderMutationOptions(refused))
    await expect(cancel.mutate(buildOrder())).rejects.toThrow('cannot')
    expect(stale(refused, getPendingOrdersQueryOptions().queryKey)).toBe(true)

    const offline = new QueryClient()
    seed(offline)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const again = new MutationObserver(offline, cancelOrderMutationOptions(offline))
    await expect(again.mutate(buildOrder())).rejects.toThrow('offline')
    expect(stale(offline, getPendingOrdersQueryOptions().queryKey)).toBe(false)
    expect(stale(offline, getCouponHistoryQueryOptions('used').queryKey)).toBe(false)
  })
})
