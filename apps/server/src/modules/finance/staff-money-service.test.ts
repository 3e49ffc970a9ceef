import type { Leg } from '@numisma/domain/postings'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { IdempotencyStore } from '../../platform/idempotency'
import type { Tx } from '../../platform/transactions'
import type { RefundOrderRow, StaffMoneyRepository } from './staff-money-repository'
import { memoRefs, MoneyDeskService } from './staff-money-service'

const USER = 7
const tx = {} as Tx

/** MoneyDeskService over in-memory accounts and one order: no database. */
function setup(
  options: {
    balance?: number
    deposit?: number
    exposure?: number
    order?: Partial<RefundOrderRow>
  } = {},
) {
  const accounts = new Map<string, number>([
    ['balance', options.balance ?? 0],
    ['deposit', options.deposit ?? 0],
    ['withdrawal', 0],
  ])
  const posted: { kind: string; memo: string; legs: readonly Leg[] }[] = []
  const order: RefundOrderRow = {
    id: 40,
    user_id: USER,
    mobile: '13800000000',
    kind: 'mall',
    status: 'paid',
    title: '长城币',
    mall_item_id: 3,
    quantity: 2,
    amount: 20_000,
    discount: 1_000,
    fee: 0,
    total: 19_000,
    user_coupon_id: 11,
    pay_method: 'balance',
    paid_at: 1,
    ...options.order,
  }
  const stockBack: number[] = []
  const couponsBack: number[] = []
  const repo = {
    userExists: () => Promise.resolve(true),
    lockOrder: () => Promise.resolve(order),
    markRefunded: () => {
      if (order.status !== 'paid') return Promise.resolve(false)
      order.status = 'cancelled'
      return Promise.resolve(true)
    },
    returnSoldStock: (_: Tx, _item: number, quantity: number) => {
      stockBack.push(quantity)
      return Promise.resolve()
    },
    returnUsedCoupon: (_: Tx, userCouponId: number) => {
      couponsBack.push(userCouponId)
      return Promise.resolve(true)
    },
    insertRefund: () => Promise.resolve(1),
    refund: () =>
      Promise.resolve({
        id: 1,
        order_id: order.id,
        user_id: USER,
        kind: order.kind,
        amount: 19_000,
        fee: 0,
        reason: 'r',
        transfer_id: 1,
        staff_id: 2,
        balance_before: 0,
        balance_after: 19_000,
        created_at: 1,
      }),
  } as unknown as Pick<StaffMoneyRepository, keyof StaffMoneyRepository>
  const service = new MoneyDeskService({
    transact: (work) => work(tx),
    clock: new FakeClock(),
    repo,
    ledger: {
      lock: () => Promise.resolve(),
      balanceIn: (_tx, _user, kind) => Promise.resolve(accounts.get(kind) ?? 0),
      post: (_tx, _user, transfer, legs) => {
        posted.push({ kind: transfer.kind, memo: transfer.memo, legs })
        for (const leg of legs)
          if (leg.owner === 'user')
            accounts.set(leg.kind, (accounts.get(leg.kind) ?? 0) + leg.amount)
        return Promise.resolve(posted.length)
      },
    },
    heldDeposit: () =>
      Promise.resolve({
        deposit: accounts.get('deposit') ?? 0,
        exposure: options.exposure ?? 0,
        multiplier: 10,
      }),
    quotaOf: () => Promise.resolve({ quota: 0, exposure: 0, freeDeposit: 0 }),
    idempotency: new IdempotencyStore(),
    reader: tx,
  })
  return { service, posted, accounts, order, stockBack, couponsBack }
}

const actor = { staffId: 2 }

describe('MoneyDeskService.adjust', () => {
  it('credits from clearing with the reason as memo, answering balances before and after', async () => {
    const s = setup({ balance: 100 })
    const result = await s.service.adjust(
      USER,
      { account: 'balance', direction: 'credit', amount: 50, reason: '补录' },
      actor,
    )
    expect(result).toMatchObject({ before: { balance: 100 }, after: { balance: 150 } })
    expect(s.posted).toEqual([
      {
        kind: 'adjustment_credit',
        memo: '补录',
        legs: [
          { owner: 'platform', kind: 'platform_clearing', amount: -50 },
          { owner: 'user', kind: 'balance', amount: 50 },
        ],
      },
    ])
  })

  it('refuses a debit beyond the balance, posting nothing', async () => {
    const s = setup({ balance: 100 })
    await expect(
      s.service.adjust(
        USER,
        { account: 'balance', direction: 'debit', amount: 101, reason: '冲回' },
        actor,
      ),
    ).rejects.toMatchObject({ code: 'BALANCE_LOW' })
    expect(s.posted).toEqual([])
  })

  it('refuses a deposit debit that exposure holds, as withdrawals do', async () => {
    // Deposit 1 000 covers exposure up to 10 000; exposure 9 000 needs 900 of it.
    const s = setup({ deposit: 1_000, exposure: 9_000 })
    await expect(
      s.service.adjust(
        USER,
        { account: 'deposit', direction: 'debit', amount: 101, reason: '冲回' },
        actor,
      ),
    ).rejects.toMatchObject({ code: 'DEPOSIT_IN_USE', details: { free: 100 } })
    await s.service.adjust(
      USER,
      { account: 'deposit', direction: 'debit', amount: 100, reason: '冲回' },
      actor,
    )
    expect(s.accounts.get('deposit')).toBe(900)
  })
})

describe('MoneyDeskService.refund', () => {
  it('cancels a paid mall order, returns stock and coupon, and posts the refund rule', async () => {
    const s = setup()
    await s.service.refund(40, '协商退款', actor)
    expect(s.order.status).toBe('cancelled')
    expect(s.stockBack).toEqual([2])
    expect(s.couponsBack).toEqual([11])
    expect(s.posted).toEqual([
      {
        kind: 'refund',
        memo: 'order 40: 协商退款',
        legs: [
          { owner: 'platform', kind: 'platform_revenue', amount: -19_000 },
          { owner: 'user', kind: 'balance', amount: 19_000 },
        ],
      },
    ])
  })

  it('refuses an order that is not paid, or applied for delivery, naming why', async () => {
    for (const [status, reason] of [
      ['pending_payment', 'NOT_PAID'],
      ['delivery_applied', 'DELIVERY_APPLIED'],
      ['cancelled', 'ALREADY_CANCELLED'],
    ] as const) {
      const s = setup({ order: { status } })
      await expect(s.service.refund(40, '协商退款', actor)).rejects.toMatchObject({
        code: 'ORDER_NOT_REFUNDABLE',
        details: { reason },
      })
      expect(s.posted).toEqual([])
    }
  })

  it('gives an auction order its goods from revenue and its fee from fees, no stock', async () => {
    const s = setup({
      order: {
        kind: 'auction',
        mall_item_id: null,
        user_coupon_id: null,
        amount: 10_000,
        discount: 0,
        fee: 1_000,
      },
    })
    await s.service.refund(40, '协商退款', actor)
    expect(s.stockBack).toEqual([])
    expect(s.posted[0]?.legs).toEqual([
      { owner: 'platform', kind: 'platform_revenue', amount: -10_000 },
      { owner: 'platform', kind: 'platform_fees', amount: -1_000 },
      { owner: 'user', kind: 'balance', amount: 11_000 },
    ])
  })
})

describe('memoRefs', () => {
  it("reads the id from the server's own memos of kinds whose tables keep no transfer id", () => {
    expect(memoRefs('withdrawal', 'withdrawal 7')).toEqual([{ type: 'withdrawal', id: 7 }])
    expect(memoRefs('withdrawal_paid', 'withdrawal 7')).toEqual([{ type: 'withdrawal', id: 7 }])
    expect(memoRefs('forfeit', 'forfeit order 12')).toEqual([{ type: 'order', id: 12 }])
    expect(memoRefs('payment_credit', 'payment 3: paid again')).toEqual([
      { type: 'payment', id: 3 },
    ])
  })

  it('reads nothing from a kind it has no rule for or a memo of another form', () => {
    expect(memoRefs('adjustment_credit', 'withdrawal 7')).toEqual([])
    expect(memoRefs('withdrawal', 'withdrawal seven')).toEqual([])
    expect(memoRefs('deposit', 'demo deposit')).toEqual([])
  })
})
