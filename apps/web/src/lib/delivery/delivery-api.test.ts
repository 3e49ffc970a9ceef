import type { Booking, DeliveryInfo, Shipment } from '@numisma/contracts/delivery'
import type { OrdersPage } from '@numisma/contracts/orders'
import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { PAY_PASSWORD_SETTINGS_KEY } from '../account/pay-password'
import { ApiError } from '../api-client'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'
import { applyDelivery, applyDeliveryMutationOptions } from './apply-delivery'
import {
  applyBooking,
  applyBookingMutationOptions,
  cancelBooking,
  cancelBookingMutationOptions,
  getBookings,
} from './bookings'
import { deliveryInfoQueryOptions, getDeliveryInfo, getExitBan, getKeepFee } from './delivery-info'
import { getWaitingToShip, waitingToShipQueryOptions } from './order-groups'
import { BOOKINGS_KEY, DELIVERY_INFO_KEY, SHIPMENTS_KEY } from './query-keys'
import {
  confirmReceipt,
  confirmReceiptMutationOptions,
  getShipment,
  getShipments,
} from './shipments'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const item = { title: '1980 长城币', lotId: 7, quantity: 1, price: 50_000, image: '' }

const buildInfo = (overrides: Partial<DeliveryInfo> = {}): DeliveryInfo => ({
  orders: [
    {
      order: {
        id: 41,
        kind: 'auction',
        status: 'paid',
        items: [item],
        goods: 50_000,
        fee: 2_500,
        discount: 0,
        total: 52_500,
        userCouponId: null,
        payMethod: 'balance',
        createdAt: '2030-01-01T00:00:00.000Z',
        dueAt: null,
        paidAt: '2030-01-01T01:00:00.000Z',
        cancelledAt: null,
      },
      storageFreeUntil: '2030-01-31T16:00:00.000Z',
      storageFee: 0,
      exportBanned: false,
    },
  ],
  quote: null,
  pickupDays: [{ date: '2030-01-03', slots: [{ slot: '10:00-12:00', remaining: 10 }] }],
  counterAddress: '上海市黄浦区',
  rates: {
    insuranceRateBps: 50,
    insuranceMinimum: 500,
    storageFreeDays: 30,
    storageFeePerDay: 100,
  },
  ...overrides,
})

const buildShipment = (overrides: Partial<Shipment> = {}): Shipment => ({
  id: 5,
  method: 'express',
  status: 'shipped',
  orderIds: [41],
  items: [item],
  address: {
    name: '王先生',
    mobile: '13800000000',
    country: '中国',
    province: '上海市',
    city: '上海市',
    detail: '南京东路 1 号',
  },
  pickupDate: null,
  pickupSlot: null,
  carrier: '顺丰',
  trackingNo: 'SF1234567',
  insured: false,
  declaredValue: 52_500,
  shippingFee: 1_200,
  insuranceFee: 0,
  storageFee: 0,
  total: 1_200,
  appliedAt: '2030-01-02T00:00:00.000Z',
  shippedAt: '2030-01-03T00:00:00.000Z',
  completedAt: null,
  autoCompleteAt: '2030-01-18T00:00:00.000Z',
  ...overrides,
})

const buildBooking = (overrides: Partial<Booking> = {}): Booking => ({
  id: 9,
  status: 'booked',
  date: '2030-01-03',
  slot: '13:30-15:30',
  orderIds: [42],
  items: [item],
  total: 52_500,
  createdAt: '2030-01-01T00:00:00.000Z',
  completedAt: null,
  ...overrides,
})

/** Seeds every key the delivery calls may refresh; reads back whether each went stale. */
const seed = (queryClient: QueryClient) => {
  const keys = [
    [...ORDERS_KEY, 'all'],
    USER_STATISTICS_KEY,
    PAY_PASSWORD_SETTINGS_KEY,
    [...DELIVERY_INFO_KEY, '', null, false],
    [...SHIPMENTS_KEY, 'waiting'],
    [...BOOKINGS_KEY, 'list'],
  ]
  for (const key of keys) queryClient.setQueryData(key, { seeded: true })
  return (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
}

describe('delivery info', () => {
  it('asks for the orders in storage without a quote when nothing is chosen', async () => {
    server.reply = buildInfo()
    await expect(getDeliveryInfo()).resolves.toEqual(buildInfo())
    expect(lastCall()).toMatchObject({
      path: '/api/user/logistic/delivery/query',
      query: {},
      defaultError: 'GET_INFO_FAILED',
    })
  })

  it('quotes the chosen orders to an address, insured, as the contract’s query string', async () => {
    server.reply = buildInfo()
    await getDeliveryInfo({ orderIds: [42, 41], addressId: 3, insured: true })
    expect(lastCall().query).toEqual({ orderIds: '42,41', addressId: 3, insured: '1' })
    await getDeliveryInfo({ orderIds: [41], insured: false })
    expect(lastCall().query).toEqual({ orderIds: '41', insured: '0' })
  })

  it('keys one selection the same whatever order it was ticked in', () => {
    expect(deliveryInfoQueryOptions({ orderIds: [42, 41] }).queryKey).toEqual(
      deliveryInfoQueryOptions({ orderIds: [41, 42] }).queryKey,
    )
    expect(deliveryInfoQueryOptions({ orderIds: [41], insured: true }).queryKey).not.toEqual(
      deliveryInfoQueryOptions({ orderIds: [41] }).queryKey,
    )
  })

  it('toasts a refused quote only when it is not just stale orders', async () => {
    server.reply = buildInfo()
    await getDeliveryInfo()
    expect(lastCall().silent).toBeUndefined()
    await getDeliveryInfo({ orderIds: [41] })
    const silent = lastCall().silent as (error: ApiError) => boolean
    expect(silent(new ApiError('ORDER_NOT_SHIPPABLE', 409, 'gone'))).toBe(true)
    expect(silent(new ApiError('NOT_FOUND', 404, 'gone'))).toBe(true)
    expect(silent(new ApiError('GET_INFO_FAILED', 500, 'down'))).toBe(false)
  })

  it('refuses an answer that is not the contract’s', async () => {
    server.reply = { ...buildInfo(), orders: [{ storageFee: 0 }] }
    await expect(getDeliveryInfo()).rejects.toThrow()
  })

  it('asks the insurance fee for a declared value and the exit ban for a destination', async () => {
    server.reply = { value: 52_500, fee: 500, rateBps: 50, minimum: 500 }
    await expect(getKeepFee(52_500)).resolves.toMatchObject({ fee: 500 })
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/logistic/queryKeepFee',
      query: { value: 52_500 },
    })
    server.reply = { allowed: false, bannedOrderIds: [41] }
    await expect(
      getExitBan({ orderIds: [41, 42], countryId: 'CN', provinceId: '810000' }),
    ).resolves.toEqual({ allowed: false, bannedOrderIds: [41] })
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/logistic/queryExitBan',
      query: { orderIds: '41,42', countryId: 'CN', provinceId: '810000' },
    })
    await getExitBan({ orderIds: [41], countryId: 'US', provinceId: null })
    expect(lastCall().query).toEqual({ orderIds: '41', countryId: 'US' })
  })
})

describe('applyDelivery', () => {
  const applied = {
    shipmentId: 5,
    method: 'express' as const,
    shippingFee: 1_200,
    insuranceFee: 500,
    storageFee: 0,
    total: 1_700,
  }

  it('posts the body with the password and the attempt’s key, silently', async () => {
    server.reply = applied
    const body = {
      orderIds: [41],
      method: 'express' as const,
      addressId: 3,
      insured: true,
      payPassword: '135790',
    }
    await expect(applyDelivery(body, 'key-1')).resolves.toEqual(applied)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/api/user/logistic/delivery/apply',
      body,
      idempotencyKey: 'key-1',
      silent: true,
      defaultError: 'SUBMIT_FAILED',
    })
  })

  it('refreshes orders, counters and delivery reads once applied, not the password lock', async () => {
    server.reply = applied
    const queryClient = new QueryClient()
    const stale = seed(queryClient)
    await new MutationObserver(queryClient, applyDeliveryMutationOptions(queryClient)).mutate({
      body: {
        orderIds: [41],
        method: 'pickup',
        pickupDate: '2030-01-03',
        pickupSlot: '10:00-12:00',
      },
      idempotencyKey: 'k',
    })
    await vi.waitFor(() => expect(stale([...ORDERS_KEY, 'all'])).toBe(true))
    expect(stale(USER_STATISTICS_KEY)).toBe(true)
    expect(stale([...DELIVERY_INFO_KEY, '', null, false])).toBe(true)
    expect(stale([...SHIPMENTS_KEY, 'waiting'])).toBe(true)
    expect(stale(PAY_PASSWORD_SETTINGS_KEY)).toBe(false)
  })

  it('after a refusal refreshes the password lock too; after no answer, nothing', async () => {
    const queryClient = new QueryClient()
    let stale = seed(queryClient)
    server.failure = new ApiError('PAY_PASSWORD_WRONG', 400, 'wrong', { triesLeft: 4 })
    const observer = new MutationObserver(queryClient, applyDeliveryMutationOptions(queryClient))
    const body = { orderIds: [41], method: 'express' as const, addressId: 3, payPassword: '000000' }
    await expect(observer.mutate({ body, idempotencyKey: 'k' })).rejects.toThrow('wrong')
    expect(stale(PAY_PASSWORD_SETTINGS_KEY)).toBe(true)
    expect(stale([...ORDERS_KEY, 'all'])).toBe(true)

    const fresh = new QueryClient()
    stale = seed(fresh)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const offline = new MutationObserver(fresh, applyDeliveryMutationOptions(fresh))
    await expect(offline.mutate({ body, idempotencyKey: 'k' })).rejects.toThrow('offline')
    expect(stale(PAY_PASSWORD_SETTINGS_KEY)).toBe(false)
    expect(stale([...ORDERS_KEY, 'all'])).toBe(false)
  })
})

describe('shipments', () => {
  it('pages waiting-to-receive and completed records from their own calls', async () => {
    server.reply = { data: [buildShipment()], page: 1, pageSize: 20, total: 1 }
    await expect(getShipments('waiting', 1)).resolves.toMatchObject({ total: 1 })
    expect(lastCall()).toMatchObject({
      path: '/api/user/logistic/waiting',
      query: { page: 1, pageSize: 20 },
      defaultError: 'GET_LIST_FAILED',
    })
    server.reply = { data: [], page: 2, pageSize: 20, total: 20 }
    await getShipments('completed', 2)
    expect(lastCall()).toMatchObject({
      path: '/api/user/logistic/completed',
      query: { page: 2, pageSize: 20 },
    })
  })

  it('reads one shipment, failing as “failed to get info”', async () => {
    server.reply = buildShipment({ id: 8 })
    await expect(getShipment(8)).resolves.toMatchObject({ id: 8, trackingNo: 'SF1234567' })
    expect(lastCall()).toMatchObject({ path: '/user/8/@logistic', defaultError: 'GET_INFO_FAILED' })
    server.reply = { ...buildShipment(), status: 'lost' }
    await expect(getShipment(8)).rejects.toThrow()
  })

  it('confirms receipt as spec §8’s “submit failed” and refreshes what it moved', async () => {
    server.reply = { shipmentId: 5, status: 'completed', orderIds: [41] }
    await expect(confirmReceipt(5)).resolves.toMatchObject({ status: 'completed' })
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/upLogisticStatus',
      body: { shipmentId: 5 },
      defaultError: 'SUBMIT_FAILED',
    })
    const queryClient = new QueryClient()
    const stale = seed(queryClient)
    await new MutationObserver(queryClient, confirmReceiptMutationOptions(queryClient)).mutate(5)
    expect(stale([...SHIPMENTS_KEY, 'waiting'])).toBe(true)
    expect(stale([...ORDERS_KEY, 'all'])).toBe(true)
    expect(stale(USER_STATISTICS_KEY)).toBe(true)
    expect(stale([...BOOKINGS_KEY, 'list'])).toBe(false)
  })
})

describe('counter cash bookings', () => {
  it('books unpaid orders on a day and slot under the attempt’s key', async () => {
    server.reply = { bookingId: 9 }
    const body = { orderIds: [42], date: '2030-01-03', slot: '13:30-15:30' as const }
    await expect(applyBooking(body, 'key-2')).resolves.toEqual({ bookingId: 9 })
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/booking/bookingApply',
      body,
      idempotencyKey: 'key-2',
      defaultError: 'SUBMIT_FAILED',
    })
  })

  it('lists bookings by page and cancels one', async () => {
    server.reply = { data: [buildBooking()], page: 1, pageSize: 20, total: 1 }
    await expect(getBookings(1)).resolves.toMatchObject({ data: [{ id: 9 }] })
    expect(lastCall()).toMatchObject({
      path: '/user/booking/queryBookingList',
      query: { page: 1, pageSize: 20 },
    })
    server.reply = buildBooking({ status: 'cancelled' })
    await expect(cancelBooking(9)).resolves.toMatchObject({ status: 'cancelled' })
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/booking/9/cancel',
    })
  })

  it('booking and cancelling refresh bookings, slots, orders and counters, even when refused', async () => {
    for (const options of [applyBookingMutationOptions, cancelBookingMutationOptions] as const) {
      const queryClient = new QueryClient()
      const stale = seed(queryClient)
      server.failure = new ApiError('SLOT_FULL', 409, 'full')
      const observer = new MutationObserver<unknown, Error, never>(
        queryClient,
        options(queryClient) as never,
      )
      await expect(
        observer.mutate(
          (options === applyBookingMutationOptions
            ? {
                body: { orderIds: [42], date: '2030-01-03', slot: '10:00-12:00' },
                idempotencyKey: 'k',
              }
            : 9) as never,
        ),
      ).rejects.toThrow('full')
      expect(stale([...BOOKINGS_KEY, 'list'])).toBe(true)
      expect(stale([...DELIVERY_INFO_KEY, '', null, false])).toBe(true)
      expect(stale([...ORDERS_KEY, 'all'])).toBe(true)
      expect(stale(USER_STATISTICS_KEY)).toBe(true)
      expect(stale([...SHIPMENTS_KEY, 'waiting'])).toBe(false)
    }
  })
})

describe('waiting to ship (the order-group reads)', () => {
  const order = (id: number, kind: 'auction' | 'mall', createdAt: string) => ({
    id,
    kind,
    status: 'paid' as const,
    items: [item],
    goods: 50_000,
    fee: 0,
    discount: 0,
    total: 50_000,
    userCouponId: null,
    payMethod: 'balance',
    createdAt,
    dueAt: null,
    paidAt: createdAt,
    cancelledAt: null,
    storageFee: 0,
    storageFreeUntil: '2030-02-01T16:00:00.000Z',
  })

  it('reads won lots and mall orders from their own calls', async () => {
    server.reply = { data: [], page: 1, pageSize: 50, total: 0 }
    await getWaitingToShip('auction', 1)
    expect(lastCall()).toMatchObject({
      path: '/user/logistic/waiting',
      query: { page: 1, pageSize: 50 },
      defaultError: 'GET_LIST_FAILED',
    })
    await getWaitingToShip('mall', 2)
    expect(lastCall()).toMatchObject({
      path: '/user/bplus/queryNoPaymentMark',
      query: { page: 2, pageSize: 50 },
    })
  })

  it('merges every page of both, newest first, under the orders root', async () => {
    const pages: Record<string, OrdersPage> = {
      '/user/logistic/waiting:1': {
        data: [order(3, 'auction', '2030-01-03T00:00:00.000Z')],
        page: 1,
        pageSize: 1,
        total: 2,
      },
      '/user/logistic/waiting:2': {
        data: [order(1, 'auction', '2030-01-01T00:00:00.000Z')],
        page: 2,
        pageSize: 1,
        total: 2,
      },
      '/user/bplus/queryNoPaymentMark:1': {
        data: [order(2, 'mall', '2030-01-02T00:00:00.000Z')],
        page: 1,
        pageSize: 1,
        total: 1,
      },
    }
    server.reply = (query: { page: number }) => {
      const path = String(server.calls.at(-1)?.path)
      return pages[`${path}:${query.page}`]
    }
    const options = waitingToShipQueryOptions()
    expect(options.queryKey.slice(0, 1)).toEqual(ORDERS_KEY)
    const merged = await new QueryClient().query(options)
    expect(merged.map((o) => o.id)).toEqual([3, 2, 1])
    expect(server.calls).toHaveLength(3)
  })
})
