import type { PayRequest } from '@numisma/contracts/payment'
import type { Leg } from '@numisma/domain/postings'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type { PayableOrder, PayableOrders } from './ports'
import type { PaymentRow, PaymentsRepository } from './repository'
import { PaymentService } from './service'
import { PREPAY_MIN_MS, PREPAY_WINDOW_MS } from './rules'
import type { PrepayOrder, WechatPayClient } from './wechat-pay'

/**
 * PaymentService with fakes (the Immich pattern): what runs inside the one transaction and what
 * must stay outside it (the password's slow hash, the platform's answer), and the settlement
 * remittances use — without a database.
 */
const NOW = Date.UTC(2026, 10, 23, 2, 0, 0)
const USER = 7

const buildOrder = (overrides: Partial<PayableOrder> = {}): PayableOrder => ({
  id: 1,
  userId: USER,
  kind: 'mall',
  status: 'pending_payment',
  goods: 10_000,
  fee: 0,
  discount: 0,
  total: 10_000,
  userCouponId: null,
  payMethod: null,
  paymentId: null,
  dueAt: NOW + 60_000,
  ...overrides,
})

function setup(options: { orders?: PayableOrder[]; balance?: number; password?: string } = {}) {
  /** What happened, in order: `tx:begin`/`tx:end` bracket each transaction. */
  const log: string[] = []
  const orders = new Map((options.orders ?? [buildOrder()]).map((o) => [o.id, { ...o }]))
  const payments = new Map<number, PaymentRow & { orderIds: number[] }>()
  let balance = options.balance ?? 0
  const posted: { kind: string; legs: readonly Leg[] }[] = []

  const transact = (async (work: (tx: Tx) => Promise<unknown>) => {
    log.push('tx:begin')
    try {
      return await work({} as Tx)
    } finally {
      log.push('tx:end')
    }
  }) as Transact

  const payableOrders: PayableOrders = {
    lock: (_tx, ids) => {
      log.push('orders:lock')
      return Promise.resolve(
        [...ids]
          .sort((a, b) => a - b)
          .flatMap((id) => (orders.has(id) ? [{ ...orders.get(id)! }] : [])),
      )
    },
    read: (ids) =>
      Promise.resolve(ids.flatMap((id) => (orders.has(id) ? [{ ...orders.get(id)! }] : []))),
    applyCoupon: () => Promise.resolve(null),
    attach: (_tx, list, paymentId, method) => {
      for (const o of list) Object.assign(orders.get(o.id)!, { paymentId, payMethod: method })
      return Promise.resolve()
    },
    markPaid: (_tx, list, paymentId, method) => {
      log.push('orders:paid')
      for (const o of list)
        Object.assign(orders.get(o.id)!, { status: 'paid', paymentId, payMethod: method })
      return Promise.resolve()
    },
  }

  const repo = {
    insertPayment: (
      _tx: Tx,
      p: {
        userId: number
        method: string
        amount: number
        orderIds: readonly number[]
        now: number
      },
    ) => {
      const id = payments.size + 1
      payments.set(id, {
        id,
        user_id: p.userId,
        method: p.method,
        status: 'pending',
        amount: p.amount,
        prepay_id: null,
        transaction_id: null,
        transfer_id: null,
        created_at: p.now,
        paid_at: null,
        prepay_at: null,
        orderIds: [...p.orderIds],
      })
      return Promise.resolve(id)
    },
    payment: (_tx: Tx, id: number) => Promise.resolve(payments.get(id)),
    orderIdsOf: (_tx: Tx, id: number) => Promise.resolve(payments.get(id)?.orderIds ?? []),
    setPaymentPrepay: (
      _tx: Tx,
      id: number,
      prepay: { prepayId: string; startedAt: number },
      previous: { prepayId: string | null },
    ) => {
      log.push('payment:prepay')
      const row = payments.get(id)!
      if (row.prepay_id !== previous.prepayId) return Promise.resolve(false)
      Object.assign(row, { prepay_id: prepay.prepayId, prepay_at: prepay.startedAt })
      return Promise.resolve(true)
    },
    markPaymentPaid: (_tx: Tx, id: number, settled: { transferId: number | null; now: number }) => {
      Object.assign(payments.get(id)!, {
        status: 'paid',
        transfer_id: settled.transferId,
        paid_at: settled.now,
      })
      return Promise.resolve(true)
    },
  }

  const ledger = {
    lock: () => {
      log.push('ledger:lock')
      return Promise.resolve()
    },
    balanceIn: () => Promise.resolve(balance),
    post: (_tx: Tx, _userId: number, transfer: { kind: string }, legs: readonly Leg[]) => {
      log.push(`ledger:${transfer.kind}`)
      const delta = legs.find((l) => l.owner === 'user' && l.kind === 'balance')?.amount ?? 0
      balance += delta
      posted.push({ kind: transfer.kind, legs })
      return Promise.resolve(posted.length)
    },
  }

  const prepays: PrepayOrder[] = []
  const wechat = {
    configured: true,
    prepay: (order: PrepayOrder) => {
      log.push('platform:prepay')
      prepays.push(order)
      return Promise.resolve('wx-prepay-1')
    },
    payRequest: (prepayId: string) => ({
      appid: 'wx',
      timestamp: '1',
      noncestr: 'n',
      packages: `prepay_id=${prepayId}`,
      signType: 'MD5' as const,
      sign: 'S',
    }),
  }

  const service = new PaymentService({
    transact,
    clock: new FakeClock(NOW),
    db: {} as Tx,
    payments: repo as unknown as PaymentsRepository,
    orders: payableOrders,
    ledger,
    passwords: {
      verify: (_userId, password) => {
        log.push('password:verify')
        if (password !== (options.password ?? '135790')) {
          return Promise.reject(new AppError('PAY_PASSWORD_WRONG'))
        }
        return Promise.resolve()
      },
    },
    wechat: wechat as unknown as WechatPayClient,
    idempotency: {
      claim: () => Promise.resolve({ kind: 'new' as const }),
      complete: () => Promise.resolve(),
      committed: () => Promise.resolve(false),
    },
  })
  return { service, log, orders, payments, posted, prepays, balance: () => balance }
}

const pay = (service: PaymentService, request: Partial<PayRequest>) =>
  service.pay(USER, { orderIds: [1], method: 'balance', ...request }, { clientIp: '127.0.0.1' })

describe('PaymentService.pay', () => {
  it('checks the payment password before the transaction, and a wrong one opens none', async () => {
    const ok = setup({ balance: 10_000 })
    await pay(ok.service, { payPassword: '135790' })
    expect(ok.log.indexOf('password:verify')).toBeLessThan(ok.log.indexOf('tx:begin'))

    const wrong = setup({ balance: 10_000 })
    await expect(pay(wrong.service, { payPassword: '000000' })).rejects.toMatchObject({
      code: 'PAY_PASSWORD_WRONG',
    })
    expect(wrong.log).toEqual(['password:verify'])
  })

  it('locks the orders, then reads the balance under its lock, then posts', async () => {
    const { service, log, orders, balance } = setup({ balance: 12_000 })
    const result = await pay(service, { payPassword: '135790' })
    expect(result).toMatchObject({ status: 'PAID', amount: 10_000 })
    expect(log).toEqual([
      'password:verify',
      'tx:begin',
      'orders:lock',
      'orders:paid',
      'ledger:lock',
      'ledger:payment',
      'tx:end',
    ])
    expect(orders.get(1)).toMatchObject({ status: 'paid', payMethod: 'balance' })
    expect(balance()).toBe(2_000)
  })

  it('answers BALANCE_LOW from its own check, before the ledger would refuse', async () => {
    const { service, posted } = setup({ balance: 9_999 })
    await expect(pay(service, { payPassword: '135790' })).rejects.toMatchObject({
      code: 'BALANCE_LOW',
      details: { balance: 9_999, amount: 10_000 },
    })
    expect(posted).toEqual([])
  })

  it('asks the platform for the prepay id only after the transaction has committed', async () => {
    const { service, log, prepays } = setup({ orders: [buildOrder({ dueAt: NOW + 60 * 60_000 })] })
    const result = await pay(service, { method: 'wechat' })
    expect(result).toMatchObject({
      status: 'PENDING',
      payRequest: { packages: 'prepay_id=wx-prepay-1' },
    })
    expect(log.indexOf('platform:prepay')).toBeGreaterThan(log.indexOf('tx:end'))
    expect(log).not.toContain('password:verify')
    expect(prepays).toEqual([
      {
        outTradeNo: `P${result.paymentId}`,
        body: '泉藏拍卖-订单支付',
        totalFee: 10_000,
        clientIp: '127.0.0.1',
        // The platform closes the trade when the mall order's time is up (before the window ends).
        expiresAt: NOW + 60 * 60_000,
        // Whose open id, if linked, names the payer on the platform (JSAPI `openid`).
        payerId: USER,
      },
    ])
  })

  it('closes a won lot’s trade with its window, and refuses a mall order under five minutes from its end', async () => {
    const lot = setup({ orders: [buildOrder({ kind: 'auction', dueAt: NOW - 1 })] })
    await pay(lot.service, { method: 'wechat' })
    expect(lot.prepays.map((p) => p.expiresAt)).toEqual([NOW + PREPAY_WINDOW_MS])

    const soon = setup({ orders: [buildOrder({ dueAt: NOW + PREPAY_MIN_MS - 1 })] })
    await expect(pay(soon.service, { method: 'wechat' })).rejects.toMatchObject({
      code: 'ORDER_NOT_PAYABLE',
      details: { orderIds: [1] },
    })
    expect(soon.log).not.toContain('platform:prepay')
  })

  it('pays at once, without the platform, when a payment comes to nothing', async () => {
    const free = buildOrder({ discount: 10_000, total: 0, userCouponId: 3 })
    const { service, log } = setup({ orders: [free] })
    expect(await pay(service, { method: 'wechat' })).toMatchObject({ status: 'PAID', amount: 0 })
    expect(log).not.toContain('platform:prepay')
    expect(log).not.toContain('ledger:payment')
  })
})

describe('PaymentService.settleFromBalance (a confirmed remittance)', () => {
  it('pays the user’s payable orders as one payment and skips the rest', async () => {
    const { service, orders, balance } = setup({
      balance: 50_000,
      orders: [
        buildOrder({ id: 1, payMethod: 'remittance', dueAt: NOW - 1 }),
        buildOrder({ id: 2, status: 'cancelled' }),
        buildOrder({ id: 3, userId: 8 }),
        buildOrder({ id: 4, kind: 'auction', status: 'overdue', fee: 1_000, total: 11_000 }),
      ],
    })
    const paymentId = await service.settleFromBalance({} as Tx, USER, [1, 2, 3, 4], NOW)
    expect(paymentId).not.toBeNull()
    expect(orders.get(1)).toMatchObject({ status: 'paid', paymentId, payMethod: 'remittance' })
    expect(orders.get(4)).toMatchObject({ status: 'paid', paymentId })
    expect(orders.get(2)!.status).toBe('cancelled')
    expect(orders.get(3)!.status).toBe('pending_payment')
    expect(balance()).toBe(50_000 - 21_000)
  })

  it('pays nothing when the balance does not cover them, or nothing is payable', async () => {
    const short = setup({ balance: 9_999 })
    expect(await short.service.settleFromBalance({} as Tx, USER, [1], NOW)).toBeNull()
    expect(short.orders.get(1)!.status).toBe('pending_payment')
    expect(short.posted).toEqual([])
    const none = setup({ balance: 50_000, orders: [buildOrder({ status: 'paid' })] })
    expect(await none.service.settleFromBalance({} as Tx, USER, [1, 99], NOW)).toBeNull()
  })

  it('settles the remittance payment chosen at doPay for exactly these orders', async () => {
    const { service, payments } = setup({ balance: 50_000 })
    const chosen = await pay(service, { method: 'remittance' })
    expect(chosen.status).toBe('PENDING')
    expect(await service.settleFromBalance({} as Tx, USER, [1], NOW)).toBe(chosen.paymentId)
    expect(payments.size).toBe(1)
    expect(payments.get(chosen.paymentId)).toMatchObject({ status: 'paid', method: 'remittance' })
  })
})
