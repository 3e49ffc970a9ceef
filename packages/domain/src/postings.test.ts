import { describe, expect, it } from 'vitest'
import type { AccountKind } from './ledger'
import {
  creditBalance,
  creditDeposit,
  forfeitDeposit,
  type Leg,
  moveToDeposit,
  type OrderCharge,
  payDeliveryFees,
  payOrders,
  payWithdrawal,
  recharge,
  refundOrder,
  refuseWithdrawal,
  reserveWithdrawal,
} from './postings'

/** The rules' effect as `owner:kind → amount`, so a test reads like the table in DESIGN §6. */
const effect = (legs: readonly Leg[]): Record<string, number> =>
  Object.fromEntries(legs.map((l) => [`${l.owner}:${l.kind}`, l.amount]))

const sum = (legs: readonly Leg[]): number => legs.reduce((s, l) => s + l.amount, 0)

const charge = (overrides: Partial<OrderCharge> = {}): OrderCharge => ({
  goods: 100_000,
  discount: 0,
  fee: 10_000,
  ...overrides,
})

/** Every rule with typical amounts, to check what holds for all of them. */
const everyRule: [string, Leg[]][] = [
  ['payOrders from balance', payOrders([charge(), charge({ discount: 5_000, fee: 0 })], 'balance')],
  ['payOrders from clearing', payOrders([charge()], 'clearing')],
  ['recharge', recharge(50_000, 300)],
  ['creditBalance', creditBalance(20_000)],
  ['creditDeposit', creditDeposit(20_000)],
  ['moveToDeposit', moveToDeposit(7_000)],
  ['moveToDeposit (back)', moveToDeposit(-7_000)],
  ['reserveWithdrawal from balance', reserveWithdrawal(4_000, 'balance')],
  ['reserveWithdrawal from deposit', reserveWithdrawal(4_000, 'deposit')],
  ['payWithdrawal', payWithdrawal(4_000)],
  ['refuseWithdrawal to balance', refuseWithdrawal(4_000, 'balance')],
  ['refuseWithdrawal to deposit', refuseWithdrawal(4_000, 'deposit')],
  ['forfeitDeposit', forfeitDeposit(30_000)],
  ['refundOrder', refundOrder(charge({ discount: 2_000 }))],
  ['payDeliveryFees', payDeliveryFees(2_300)],
]

const USER_KINDS: AccountKind[] = ['balance', 'deposit', 'withdrawal']

describe('posting rules (DESIGN §6)', () => {
  it.each(everyRule)('%s: legs sum to zero, no zero leg, one leg per account', (_, legs) => {
    expect(legs.length).toBeGreaterThanOrEqual(2)
    expect(sum(legs)).toBe(0)
    expect(legs.every((l) => Number.isSafeInteger(l.amount) && l.amount !== 0)).toBe(true)
    const accounts = legs.map((l) => `${l.owner}:${l.kind}`)
    expect(new Set(accounts).size).toBe(accounts.length)
  })

  it.each(everyRule)(
    '%s: user legs on user accounts, platform legs on platform accounts',
    (_, legs) => {
      for (const leg of legs) {
        expect(USER_KINDS.includes(leg.kind)).toBe(leg.owner === 'user')
      }
    },
  )

  it('paying from balance: goods less discount to revenue, fees to fees, the total off the balance', () => {
    const legs = payOrders(
      [
        charge({ goods: 100_000, discount: 0, fee: 10_000 }),
        charge({ goods: 30_000, discount: 5_000, fee: 0 }),
      ],
      'balance',
    )
    expect(effect(legs)).toEqual({
      'user:balance': -135_000,
      'platform:platform_revenue': 125_000,
      'platform:platform_fees': 10_000,
    })
  })

  it('paying from outside takes the total from clearing and leaves the user alone', () => {
    expect(effect(payOrders([charge()], 'clearing'))).toEqual({
      'platform:platform_clearing': -110_000,
      'platform:platform_revenue': 100_000,
      'platform:platform_fees': 10_000,
    })
  })

  it('a mall order without fee posts no fees leg', () => {
    expect(effect(payOrders([charge({ fee: 0 })], 'balance'))).toEqual({
      'user:balance': -100_000,
      'platform:platform_revenue': 100_000,
    })
  })

  it('recharge: the amount onto the deposit, the channel fee to fees, both from clearing', () => {
    expect(effect(recharge(50_000, 300))).toEqual({
      'platform:platform_clearing': -50_300,
      'user:deposit': 50_000,
      'platform:platform_fees': 300,
    })
    expect(effect(recharge(50_000, 0))).toEqual({
      'platform:platform_clearing': -50_000,
      'user:deposit': 50_000,
    })
  })

  it('money from outside lands on the balance or the deposit through clearing', () => {
    expect(effect(creditBalance(20_000))).toEqual({
      'platform:platform_clearing': -20_000,
      'user:balance': 20_000,
    })
    expect(effect(creditDeposit(20_000))).toEqual({
      'platform:platform_clearing': -20_000,
      'user:deposit': 20_000,
    })
  })

  it('moving to the deposit and back touches only the user’s balance and deposit', () => {
    expect(effect(moveToDeposit(7_000))).toEqual({ 'user:balance': -7_000, 'user:deposit': 7_000 })
    expect(effect(moveToDeposit(-7_000))).toEqual({ 'user:balance': 7_000, 'user:deposit': -7_000 })
  })

  it('a withdrawal is held, then paid out through clearing or returned to its source', () => {
    expect(effect(reserveWithdrawal(4_000, 'deposit'))).toEqual({
      'user:deposit': -4_000,
      'user:withdrawal': 4_000,
    })
    expect(effect(payWithdrawal(4_000))).toEqual({
      'user:withdrawal': -4_000,
      'platform:platform_clearing': 4_000,
    })
    expect(effect(refuseWithdrawal(4_000, 'deposit'))).toEqual({
      'user:withdrawal': -4_000,
      'user:deposit': 4_000,
    })
    expect(effect(refuseWithdrawal(4_000, 'balance'))).toEqual({
      'user:withdrawal': -4_000,
      'user:balance': 4_000,
    })
  })

  it('a forfeited deposit goes to revenue', () => {
    expect(effect(forfeitDeposit(30_000))).toEqual({
      'user:deposit': -30_000,
      'platform:platform_revenue': 30_000,
    })
  })

  it('delivery fees leave the balance for revenue', () => {
    expect(effect(payDeliveryFees(2_300))).toEqual({
      'user:balance': -2_300,
      'platform:platform_revenue': 2_300,
    })
  })

  it('a refund is the balance payment reversed', () => {
    const paid = charge({ goods: 80_000, discount: 3_000, fee: 8_000 })
    const refund = effect(refundOrder(paid))
    const payment = effect(payOrders([paid], 'balance'))
    expect(refund).toEqual({
      'platform:platform_revenue': -77_000,
      'platform:platform_fees': -8_000,
      'user:balance': 85_000,
    })
    for (const [account, amount] of Object.entries(payment)) expect(refund[account]).toBe(-amount)
  })

  it('a refund of a fee-less order posts no fees leg', () => {
    expect(effect(refundOrder(charge({ fee: 0 })))).toEqual({
      'platform:platform_revenue': -100_000,
      'user:balance': 100_000,
    })
  })
})
