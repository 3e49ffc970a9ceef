import type { MallItemDetail } from '@numisma/contracts/catalog'
import type {
  CreateOrderResult,
  MallCoupon,
  PurchaseRecord,
  UsableCoupon,
} from '@numisma/contracts/mall'
import { MutationObserver, QueryClient, type InfiniteData } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, type Page } from '../api-client'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import {
  getMallCoupons,
  getMallCouponsQueryOptions,
  getUsableCoupons,
  getUsableCouponsQueryOptions,
  receiveCoupon,
  receiveCouponMutationOptions,
} from './coupons'
import { createOrder, createOrderMutationOptions, purchaseMessage } from './create-order'
import { getMallItem, getMallItemQueryOptions } from './get-mall-item'
import {
  getPurchaseRecords,
  getPurchaseRecordsQueryOptions,
  purchaseRows,
} from './purchase-records'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const terms = {
  title: '满100减20',
  kind: 'amount' as const,
  threshold: 10_000,
  amount: 2_000,
  percent: null,
  cap: null,
  startsAt: '2030-01-01T00:00:00.000Z',
  endsAt: '2030-02-01T00:00:00.000Z',
  scope: 'all' as const,
}
const buildMallCoupon = (overrides: Partial<MallCoupon> = {}): MallCoupon => ({
  ...terms,
  id: 3,
  received: false,
  receivable: true,
  left: 40,
  ...overrides,
})
const buildUsable = (overrides: Partial<UsableCoupon> = {}): UsableCoupon => ({
  ...terms,
  userCouponId: 11,
  couponId: 3,
  saving: 2_000,
  ...overrides,
})
const buildRecord = (overrides: Partial<PurchaseRecord> = {}): PurchaseRecord => ({
  buyer: '张**',
  quantity: 1,
  at: '2030-01-01T10:00:00.000Z',
  mine: false,
  ...overrides,
})

describe('coupon calls', () => {
  it('GET getMallCoupons: every coupon checked against the contract', async () => {
    server.reply = [buildMallCoupon()]
    await expect(getMallCoupons('M 1')).resolves.toEqual([buildMallCoupon()])
    expect(lastCall()).toMatchObject({
      path: '/mallproduct/getMallCoupons/M%201',
      defaultError: 'GET_LIST_FAILED',
    })
    server.reply = [{ ...buildMallCoupon(), left: '40' }]
    await expect(getMallCoupons('M1')).rejects.toThrow()
  })

  it('an item and its coupons leave a 404 untoasted (the page says not found), not other failures', async () => {
    server.failure = new ApiError('NOT_FOUND', 404, '内容不存在')
    await expect(getMallItem('M999999')).rejects.toBe(server.failure)
    await expect(getMallCoupons('M999999')).rejects.toBe(server.failure)
    for (const { silent } of server.calls) {
      expect(typeof silent).toBe('function')
      const quiet = silent as (error: ApiError) => boolean
      expect(quiet(new ApiError('NOT_FOUND', 404, '内容不存在'))).toBe(true)
      expect(quiet(new ApiError('GET_ITEM_INFO_FAILED', 500, '加载失败'))).toBe(false)
      expect(quiet(new ApiError('TIMEOUT', 0, '请求超时'))).toBe(false)
    }
    expect(server.calls).toHaveLength(2)
  })

  it('POST receiveCoupon: the new coupon’s id', async () => {
    server.reply = { userCouponId: 21 }
    await expect(receiveCoupon(3)).resolves.toEqual({ userCouponId: 21 })
    expect(lastCall()).toMatchObject({ method: 'POST', path: '/api/user/receiveCoupon/3' })
    server.reply = {}
    await expect(receiveCoupon(3)).rejects.toThrow()
  })

  it('GET getUserCoupons for an item and a quantity, each with its saving', async () => {
    server.reply = [buildUsable()]
    await expect(getUsableCoupons('M1', 3)).resolves.toEqual([buildUsable()])
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/pay/getUserCoupons',
      query: { productNo: 'M1', quantity: 3 },
    })
    server.reply = [{ ...buildUsable(), saving: undefined }]
    await expect(getUsableCoupons('M1', 3)).rejects.toThrow()
  })

  it('keys every coupon list under one root, the usable one per quantity', () => {
    const mall = getMallCouponsQueryOptions('M1').queryKey
    const one = getUsableCouponsQueryOptions('M1', 1).queryKey
    const two = getUsableCouponsQueryOptions('M1', 2).queryKey
    for (const key of [mall, one, two])
      expect(key.slice(0, COUPONS_KEY.length)).toEqual([...COUPONS_KEY])
    expect(one).not.toEqual(two)
  })
})

describe('POST createOrder', () => {
  const order = { productNo: 'M1', quantity: 2, userCouponId: 11 }

  it('sends the order with its idempotency key; purchase failed is the default', async () => {
    server.reply = { status: 'SUCCESS', detail: '下单成功', orderId: 5 }
    await expect(createOrder(order, 'key-1')).resolves.toEqual(server.reply)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/mallorder/createOrder',
      body: order,
      idempotencyKey: 'key-1',
      defaultError: 'PURCHASE_FAILED',
    })
    // A status outside the contract is not a success by another name.
    server.reply = { status: 'OK', detail: '' }
    await expect(createOrder(order, 'key-2')).rejects.toThrow()
  })

  it('toasts the server’s detail, or the catalogue’s when it gave none', () => {
    const refused: CreateOrderResult = { status: 'SOLD_OUT', detail: '库存不足', left: 1 }
    expect(purchaseMessage(refused, 'zh')).toBe('库存不足')
    expect(purchaseMessage({ status: 'SOLD_OUT', detail: ' ' }, 'zh')).toBe('操作失败，请稍后再试')
    expect(purchaseMessage({ status: 'OFF_SALE', detail: '' }, 'en')).toBe(
      'operation failed, please try again later',
    )
  })
})

describe('purchase records, a page at a time', () => {
  it('asks for a page and checks the envelope and every row', async () => {
    server.reply = { data: [buildRecord()], page: 2, pageSize: 20, total: 21 }
    await expect(getPurchaseRecords('M1', 2)).resolves.toEqual(server.reply)
    expect(lastCall()).toMatchObject({
      path: '/mallorder/records/M1',
      query: { page: 2, pageSize: 20 },
    })
    server.reply = { data: [buildRecord()], page: 1, pageSize: 20 }
    await expect(getPurchaseRecords('M1', 1)).rejects.toThrow()
    server.reply = { data: [{ ...buildRecord(), quantity: '1' }], page: 1, pageSize: 20, total: 1 }
    await expect(getPurchaseRecords('M1', 1)).rejects.toThrow()
  })

  it('has a next page until the total is reached', () => {
    const options = getPurchaseRecordsQueryOptions('M1')
    const page = (n: number, count: number): Page<PurchaseRecord> => ({
      data: Array.from({ length: count }, () => buildRecord()),
      page: n,
      pageSize: 20,
      total: 45,
    })
    expect(options.getNextPageParam(page(1, 20), [page(1, 20)], 1, [1])).toBe(2)
    expect(options.getNextPageParam(page(3, 5), [], 3, [1, 2, 3])).toBeUndefined()
  })

  it('shows a row once when a new purchase shifted it onto the next page', () => {
    const newest = buildRecord({ at: '2030-01-01T10:02:00.000Z', quantity: 2 })
    const middle = buildRecord({ at: '2030-01-01T10:01:00.000Z', mine: true, buyer: '我' })
    const oldest = buildRecord({ at: '2030-01-01T10:00:00.000Z' })
    const data: InfiniteData<Page<PurchaseRecord>> = {
      pages: [
        { data: [newest, middle], page: 1, pageSize: 2, total: 3 },
        { data: [middle, oldest], page: 2, pageSize: 2, total: 4 },
      ],
      pageParams: [1, 2],
    }
    expect(purchaseRows(data)).toEqual([newest, middle, oldest])
  })
})

describe('buying and receiving own their cache', () => {
  const item = { productNo: 'M1', stock: 3 } as MallItemDetail
  const seed = (queryClient: QueryClient) => {
    queryClient.setQueryData(getMallItemQueryOptions('M1').queryKey, item)
    queryClient.setQueryData(getMallItemQueryOptions('M2').queryKey, item)
    queryClient.setQueryData(getMallCouponsQueryOptions('M1').queryKey, [buildMallCoupon()])
    queryClient.setQueryData(getUsableCouponsQueryOptions('M1', 2).queryKey, [buildUsable()])
    queryClient.setQueryData([...ORDERS_KEY, 'pending'], [])
    queryClient.setQueryData(USER_STATISTICS_KEY, {})
    queryClient.setQueryData(getPurchaseRecordsQueryOptions('M1').queryKey, {
      pages: [],
      pageParams: [],
    })
  }
  const stale = (queryClient: QueryClient, queryKey: readonly unknown[]) =>
    queryClient.getQueryState(queryKey)?.isInvalidated === true
  const order = { productNo: 'M1', quantity: 2, userCouponId: 11 }

  it('a placed order makes orders, counts, coupons, the item and its records stale', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.reply = { status: 'SUCCESS', detail: 'ok', orderId: 5 }
    const buy = new MutationObserver(queryClient, createOrderMutationOptions(queryClient))
    await buy.mutate({ order, idempotencyKey: 'k' })
    expect(stale(queryClient, getMallItemQueryOptions('M1').queryKey)).toBe(true)
    expect(stale(queryClient, getMallCouponsQueryOptions('M1').queryKey)).toBe(true)
    expect(stale(queryClient, getUsableCouponsQueryOptions('M1', 2).queryKey)).toBe(true)
    expect(stale(queryClient, [...ORDERS_KEY, 'pending'])).toBe(true)
    expect(stale(queryClient, USER_STATISTICS_KEY)).toBe(true)
    expect(stale(queryClient, getPurchaseRecordsQueryOptions('M1').queryKey)).toBe(true)
    // Another item is untouched.
    expect(stale(queryClient, getMallItemQueryOptions('M2').queryKey)).toBe(false)
  })

  it('a refused order refreshes the item and coupons it was judged on, not the orders', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.reply = { status: 'COUPON_INVALID', detail: '优惠券不可用于此订单' }
    const buy = new MutationObserver(queryClient, createOrderMutationOptions(queryClient))
    await expect(buy.mutate({ order, idempotencyKey: 'k' })).resolves.toMatchObject({
      status: 'COUPON_INVALID',
    })
    expect(stale(queryClient, getMallItemQueryOptions('M1').queryKey)).toBe(true)
    expect(stale(queryClient, getUsableCouponsQueryOptions('M1', 2).queryKey)).toBe(true)
    expect(stale(queryClient, [...ORDERS_KEY, 'pending'])).toBe(false)
    expect(stale(queryClient, USER_STATISTICS_KEY)).toBe(false)
  })

  it('an order that never left the phone changes nothing', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const buy = new MutationObserver(queryClient, createOrderMutationOptions(queryClient))
    await expect(buy.mutate({ order, idempotencyKey: 'k' })).rejects.toThrow('offline')
    expect(stale(queryClient, getMallItemQueryOptions('M1').queryKey)).toBe(false)
    expect(stale(queryClient, getUsableCouponsQueryOptions('M1', 2).queryKey)).toBe(false)
  })

  it('receiving, or being refused, refreshes every coupon list', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.reply = { userCouponId: 21 }
    const receive = new MutationObserver(queryClient, receiveCouponMutationOptions(queryClient))
    await receive.mutate(3)
    expect(stale(queryClient, getMallCouponsQueryOptions('M1').queryKey)).toBe(true)
    expect(stale(queryClient, getUsableCouponsQueryOptions('M1', 2).queryKey)).toBe(true)
    expect(stale(queryClient, getMallItemQueryOptions('M1').queryKey)).toBe(false)

    const again = new QueryClient()
    seed(again)
    server.failure = new ApiError('COUPON_GONE', 409, 'gone')
    const refused = new MutationObserver(again, receiveCouponMutationOptions(again))
    await expect(refused.mutate(3)).rejects.toThrow('gone')
    expect(stale(again, getMallCouponsQueryOptions('M1').queryKey)).toBe(true)

    const offline = new QueryClient()
    seed(offline)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    await expect(
      new MutationObserver(offline, receiveCouponMutationOptions(offline)).mutate(3),
    ).rejects.toThrow()
    expect(stale(offline, getMallCouponsQueryOptions('M1').queryKey)).toBe(false)
  })
})
