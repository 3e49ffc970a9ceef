import type { Balances, Recharge } from '@numisma/contracts/account'
import type { Payment, PayResult } from '@numisma/contracts/payment'
import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { PAY_PASSWORD_SETTINGS_KEY } from '../account/pay-password'
import { ApiError } from '../api-client'
import { getUsableCouponsForOrder, getUsableCouponsForOrderQueryOptions } from '../mall/coupons'
import { COUPONS_KEY, ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { doPay, doPayMutationOptions } from './do-pay'
import { getPayment, PAYMENT_POLL_MS, paymentQueryOptions, refreshAfterPaid } from './get-payment'
import { PAYMENTS_KEY } from './query-keys'
import { getRecharge, rechargeQueryOptions } from './get-recharge'
import { createRecharge, rechargeFee } from './recharge'
import { RECHARGES_KEY } from './query-keys'
import { transferFunds, transferMutationOptions } from './transfer'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const paid: PayResult = {
  status: 'PAID',
  paymentId: 12,
  method: 'balance',
  orderIds: [41, 42],
  amount: 156_200,
}

const buildPayment = (overrides: Partial<Payment> = {}): Payment => ({
  id: 12,
  method: 'wechat',
  status: 'pending',
  amount: 78_100,
  orderIds: [41],
  createdAt: '2030-01-01T00:00:00.000Z',
  paidAt: null,
  ...overrides,
})

/** Every key the money calls may refresh, seeded so whether each went stale can be read. */
const seed = (queryClient: QueryClient) => {
  const keys = [
    [...ORDERS_KEY, 'pending'],
    [...ORDERS_KEY, 'waitPayStatistics', '41,42'],
    [...COUPONS_KEY, 'usable', 'order', 41],
    USER_STATISTICS_KEY,
    PAY_PASSWORD_SETTINGS_KEY,
    [...PAYMENTS_KEY, 12],
  ]
  for (const key of keys) queryClient.setQueryData(key, { seeded: true })
  return (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
}

describe('doPay', () => {
  it('posts the orders, method and password with the attempt’s key, silently', async () => {
    server.reply = paid
    const body = { orderIds: [41, 42], method: 'balance' as const, payPassword: '135790' }
    await expect(doPay(body, 'key-1')).resolves.toEqual(paid)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/3_3/pay/doPay',
      body,
      idempotencyKey: 'key-1',
      silent: true,
      defaultError: 'BALANCE_PAYMENT_FAILED',
    })
  })

  it('fails a balance payment as “balance payment failed”, any other as “payment failed”', async () => {
    server.reply = { ...paid, status: 'PENDING', method: 'remittance' }
    await doPay({ orderIds: [41], method: 'remittance' }, 'k')
    expect(lastCall().defaultError).toBe('PAYMENT_FAILED')
    await doPay({ orderIds: [41], method: 'wechat' }, 'k')
    expect(lastCall().defaultError).toBe('PAYMENT_FAILED')
  })

  it('refuses an answer that is not the contract’s', async () => {
    server.reply = { ...paid, status: 'DONE' }
    await expect(doPay({ orderIds: [41], method: 'balance' }, 'k')).rejects.toThrow()
  })

  it('refreshes orders, counters, coupons and payments after paying, in the background', async () => {
    const queryClient = new QueryClient()
    const stale = seed(queryClient)
    server.reply = paid
    const pay = new MutationObserver(queryClient, doPayMutationOptions(queryClient))
    await pay.mutate({ body: { orderIds: [41, 42], method: 'balance' }, idempotencyKey: 'k' })
    expect(stale([...ORDERS_KEY, 'pending'])).toBe(true)
    expect(stale([...ORDERS_KEY, 'waitPayStatistics', '41,42'])).toBe(true)
    expect(stale([...COUPONS_KEY, 'usable', 'order', 41])).toBe(true)
    expect(stale(USER_STATISTICS_KEY)).toBe(true)
    expect(stale([...PAYMENTS_KEY, 12])).toBe(true)
    expect(stale(PAY_PASSWORD_SETTINGS_KEY)).toBe(false)
  })

  it('refreshes the same and the password settings after a refusal, not when never sent', async () => {
    const refused = new QueryClient()
    const staleRefused = seed(refused)
    server.failure = new ApiError('PAY_PASSWORD_WRONG', 403, 'wrong', { triesLeft: 4 })
    const pay = new MutationObserver(refused, doPayMutationOptions(refused))
    await expect(
      pay.mutate({ body: { orderIds: [41], method: 'balance' }, idempotencyKey: 'k' }),
    ).rejects.toThrow('wrong')
    expect(staleRefused(PAY_PASSWORD_SETTINGS_KEY)).toBe(true)
    expect(staleRefused([...ORDERS_KEY, 'pending'])).toBe(true)

    const offline = new QueryClient()
    const staleOffline = seed(offline)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const again = new MutationObserver(offline, doPayMutationOptions(offline))
    await expect(
      again.mutate({ body: { orderIds: [41], method: 'balance' }, idempotencyKey: 'k' }),
    ).rejects.toThrow('offline')
    expect(staleOffline([...ORDERS_KEY, 'pending'])).toBe(false)
    expect(staleOffline(PAY_PASSWORD_SETTINGS_KEY)).toBe(false)
  })
})

describe('one payment', () => {
  it('is read by id under the payments root', async () => {
    server.reply = buildPayment()
    await expect(getPayment(12)).resolves.toEqual(buildPayment())
    expect(lastCall()).toMatchObject({ path: '/user/payments/12', defaultError: 'GET_INFO_FAILED' })
    expect(paymentQueryOptions(12, 0).queryKey).toEqual([...PAYMENTS_KEY, 12])
  })

  it('is asked for again while pending and before the polling window ends, never after', async () => {
    const queryClient = new QueryClient()
    const at = (now: number, payment: Payment) => {
      const options = paymentQueryOptions(12, 10_000, () => now)
      queryClient.setQueryData(options.queryKey, payment)
      const observer = new QueryObserver(queryClient, options)
      const interval = options.refetchInterval
      if (typeof interval !== 'function') throw new Error('expected a function')
      const query = queryClient.getQueryCache().find({ queryKey: options.queryKey })!
      observer.destroy()
      return interval(query as never)
    }
    expect(at(5_000, buildPayment())).toBe(PAYMENT_POLL_MS)
    expect(at(10_000, buildPayment())).toBe(false)
    expect(at(5_000, buildPayment({ status: 'paid', paidAt: '2030-01-01T00:00:03.000Z' }))).toBe(
      false,
    )
    expect(at(5_000, buildPayment({ status: 'failed' }))).toBe(false)
  })

  it('once paid, refreshes the orders, counters and coupons it changed', async () => {
    const queryClient = new QueryClient()
    const stale = seed(queryClient)
    await refreshAfterPaid(queryClient)
    expect(stale([...ORDERS_KEY, 'pending'])).toBe(true)
    expect(stale(USER_STATISTICS_KEY)).toBe(true)
    expect(stale([...COUPONS_KEY, 'usable', 'order', 41])).toBe(true)
  })
})

describe('balance ⇄ deposit', () => {
  const balances: Balances = { balance: 10_000, deposit: 90_000, freeDeposit: 40_000 }

  it('patches the caller’s own finance with a signed amount and the attempt’s key', async () => {
    server.reply = balances
    await expect(
      transferFunds({ userId: '7', amount: -20_000, idempotencyKey: 'key-9' }),
    ).resolves.toEqual(balances)
    expect(lastCall()).toMatchObject({
      method: 'PATCH',
      path: '/user/7/@finance',
      body: { amount: -20_000 },
      idempotencyKey: 'key-9',
      silent: true,
    })
  })

  it('refreshes the user centre and the payment screen’s balance, answered or refused', async () => {
    const queryClient = new QueryClient()
    const stale = seed(queryClient)
    server.reply = balances
    const move = new MutationObserver(queryClient, transferMutationOptions(queryClient))
    await move.mutate({ userId: '7', amount: 5_000, idempotencyKey: 'k' })
    expect(stale(USER_STATISTICS_KEY)).toBe(true)
    expect(stale([...ORDERS_KEY, 'waitPayStatistics', '41,42'])).toBe(true)

    const refused = new QueryClient()
    const staleRefused = seed(refused)
    server.failure = new ApiError('DEPOSIT_IN_USE', 409, 'held', { free: 40_000 })
    const again = new MutationObserver(refused, transferMutationOptions(refused))
    await expect(
      again.mutate({ userId: '7', amount: -90_000, idempotencyKey: 'k' }),
    ).rejects.toThrow('held')
    expect(staleRefused(USER_STATISTICS_KEY)).toBe(true)
  })
})

describe('recharge', () => {
  it('adds the channel fee, rounded up to the fen', () => {
    expect(rechargeFee(100_000)).toBe(600)
    expect(rechargeFee(1)).toBe(1)
    expect(rechargeFee(50_001)).toBe(301)
    expect(rechargeFee(100_000, 0)).toBe(0)
  })

  it('patches the amount with the attempt’s key and “failed to get fee” as its default', async () => {
    const recharge: Recharge = {
      rechargeId: 3,
      amount: 100_000,
      fee: 600,
      total: 100_600,
      status: 'pending',
      payRequest: {
        appid: 'wx',
        timestamp: '1',
        noncestr: 'n',
        packages: 'prepay_id=p',
        signType: 'MD5',
        sign: 's',
      },
    }
    server.reply = recharge
    await expect(createRecharge(100_000, 'key-3')).resolves.toEqual(recharge)
    expect(lastCall()).toMatchObject({
      method: 'PATCH',
      path: '/user/recharge/@finance',
      body: { amount: 100_000 },
      idempotencyKey: 'key-3',
      defaultError: 'GET_FEE_FAILED',
    })
  })
})

describe('coupons for a placed order', () => {
  it('asks getUserCoupons by order id and keys the list under the coupons root', async () => {
    const usable = {
      userCouponId: 9,
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
      saving: 1_000,
    }
    server.reply = [usable]
    await expect(getUsableCouponsForOrder(41)).resolves.toEqual([usable])
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/pay/getUserCoupons',
      query: { orderId: 41 },
      defaultError: 'GET_LIST_FAILED',
    })
    const key = getUsableCouponsForOrderQueryOptions(41).queryKey
    expect(key.slice(0, COUPONS_KEY.length)).toEqual([...COUPONS_KEY])
    expect(key).not.toEqual(getUsableCouponsForOrderQueryOptions(42).queryKey)
  })
})

describe('one recharge', () => {
  const recharge: Recharge = {
    rechargeId: 3,
    amount: 100_000,
    fee: 600,
    total: 100_600,
    status: 'pending',
  }

  it('is read by id under the recharges root, polled only while pending in its window', async () => {
    server.reply = recharge
    await expect(getRecharge(3)).resolves.toEqual(recharge)
    expect(lastCall()).toMatchObject({ path: '/user/recharge/3', defaultError: 'GET_INFO_FAILED' })
    const queryClient = new QueryClient()
    const at = (now: number, data: Recharge) => {
      const options = rechargeQueryOptions(3, 10_000, () => now)
      expect(options.queryKey).toEqual([...RECHARGES_KEY, 3])
      queryClient.setQueryData(options.queryKey, data)
      const interval = options.refetchInterval
      if (typeof interval !== 'function') throw new Error('expected a function')
      return interval(queryClient.getQueryCache().find({ queryKey: options.queryKey }) as never)
    }
    expect(at(1_000, recharge)).toBe(PAYMENT_POLL_MS)
    expect(at(11_000, recharge)).toBe(false)
    expect(at(1_000, { ...recharge, status: 'paid' })).toBe(false)
  })
})
