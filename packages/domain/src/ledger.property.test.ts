import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type AccountKind,
  type AccountView,
  checkTransfer,
  isUserAccount,
  type LedgerRefusal,
  type Posting,
} from './ledger'
import {
  creditBalance,
  creditDeposit,
  forfeitDeposit,
  payDeliveryFees,
  type Leg,
  moveToDeposit,
  type OrderCharge,
  payOrders,
  payWithdrawal,
  recharge,
  refundOrder,
  refuseWithdrawal,
  reserveWithdrawal,
} from './postings'

/**
 * DESIGN §6 ledger invariants over generated sequences of every money movement the shop makes —
 * recharges, counter and remittance credits, order payments from the balance and from outside,
 * balance ↔ deposit moves, withdrawals reserved then paid or refused, refunds and overdue
 * deductions — each posted through its rule (postings.ts) and judged by `checkTransfer`, as the
 * server's LedgerService does. After every step: the accounts sum to zero, every account is the
 * sum of its postings, no user account is negative, each user holds what the movements say
 * (kept by hand beside the ledger), a transfer is refused exactly when it would overdraw a user
 * account, and a refused one changes nothing.
 *
 * Reproduce a failure: FC_SEED=<seed> [FC_PATH=<path>] npx vitest run --project unit packages/domain/src/ledger.property
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 1_500)
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
const PATH = process.env.FC_PATH
const RERUN = `FC_SEED=${SEED} npx vitest run --project unit packages/domain/src/ledger.property`
const params = { numRuns: NUM_RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) }

const PLATFORM = 0
const USERS = [1, 2, 3]

/** An in-memory ledger with the server's shape: accounts by (owner, kind), transfers of postings. */
class MemoryLedger {
  readonly accounts: (AccountView & { userId: number })[] = []
  readonly postings: Posting[] = []
  transfers = 0

  /** LedgerService.post: the legs onto the user's and the platform's accounts, or a refusal. */
  post(userId: number, legs: readonly Leg[]): LedgerRefusal | null {
    // Accounts are opened on first use; a refused transfer opens none (the server rolls back).
    const opened: (AccountView & { userId: number })[] = []
    const accountOf = (owner: number, kind: AccountKind) => {
      const all = [...this.accounts, ...opened]
      let account = all.find((a) => a.userId === owner && a.kind === kind)
      if (!account) {
        account = { id: all.length + 1, userId: owner, kind, balance: 0 }
        opened.push(account)
      }
      return account
    }
    const postings = legs.map((leg) => ({
      accountId: accountOf(leg.owner === 'user' ? userId : PLATFORM, leg.kind).id,
      amount: leg.amount,
    }))
    const touched = [...this.accounts, ...opened].filter((a) =>
      postings.some((p) => p.accountId === a.id),
    )
    const refusal = checkTransfer(postings, touched)
    if (refusal) return refusal
    this.accounts.push(...opened)
    for (const p of postings) {
      const account = this.accounts.find((a) => a.id === p.accountId)
      if (account) account.balance += p.amount
      this.postings.push(p)
    }
    this.transfers++
    return null
  }

  balanceOf(userId: number, kind: AccountKind): number {
    return this.accounts.find((a) => a.userId === userId && a.kind === kind)?.balance ?? 0
  }

  snapshot(): string {
    return JSON.stringify({ accounts: this.accounts, postings: this.postings.length })
  }
}

type UserKind = 'balance' | 'deposit' | 'withdrawal'

/**
 * What the shop remembers beside the ledger: paid orders (refundable once), open withdrawals, and
 * what each user should hold, kept by hand from DESIGN §4/§6's words rather than from the rules.
 */
interface World {
  ledger: MemoryLedger
  paid: { userId: number; charge: OrderCharge }[]
  withdrawals: { userId: number; amount: number; source: 'balance' | 'deposit' }[]
  holds: Map<number, Record<UserKind, number>>
}

const holdsOf = (world: World, userId: number): Record<UserKind, number> =>
  world.holds.get(userId) ?? { balance: 0, deposit: 0, withdrawal: 0 }

const orderTotal = (c: OrderCharge): number => c.goods - c.discount + c.fee

/** A step planned: who, the rule's legs, what the user's accounts should do, what to record. */
interface Planned {
  userId: number
  legs: Leg[]
  change: Partial<Record<UserKind, number>>
  record?: () => void
}

type Step =
  | { op: 'recharge'; userId: number; amount: number; fee: number }
  | { op: 'creditBalance'; userId: number; amount: number }
  | { op: 'creditDeposit'; userId: number; amount: number }
  | { op: 'payOrders'; userId: number; charges: OrderCharge[]; from: 'balance' | 'clearing' }
  | { op: 'moveToDeposit'; userId: number; amount: number }
  | { op: 'reserveWithdrawal'; userId: number; amount: number; source: 'balance' | 'deposit' }
  | { op: 'decideWithdrawal'; pick: number; pay: boolean }
  | { op: 'refundOrder'; pick: number }
  | { op: 'forfeitDeposit'; userId: number; hammer: number }
  | { op: 'payDeliveryFees'; userId: number; amount: number }

/** Small amounts (where overdrafts happen) as often as large ones. */
const fenArb = fc.oneof(
  fc.integer({ min: 1, max: 1_000 }),
  fc.integer({ min: 1, max: 100_000 }),
  fc.integer({ min: 1, max: 100_000_000 }),
)
const userArb = fc.constantFrom(...USERS)
const sourceArb = fc.constantFrom('balance' as const, 'deposit' as const)
const chargeArb: fc.Arbitrary<OrderCharge> = fc
  .record({
    goods: fenArb,
    discountPart: fc.double({ min: 0, max: 1, noNaN: true }),
    fee: fc.nat(10_000),
  })
  .map(({ goods, discountPart, fee }) => ({
    goods,
    discount: Math.floor(goods * discountPart * 0.5),
    fee,
  }))

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('recharge' as const),
    userId: userArb,
    amount: fenArb,
    fee: fc.nat(1_000),
  }),
  fc.record({ op: fc.constant('creditBalance' as const), userId: userArb, amount: fenArb }),
  fc.record({ op: fc.constant('creditDeposit' as const), userId: userArb, amount: fenArb }),
  fc.record({
    op: fc.constant('payOrders' as const),
    userId: userArb,
    charges: fc.array(chargeArb, { minLength: 1, maxLength: 4 }),
    from: fc.constantFrom('balance' as const, 'clearing' as const),
  }),
  fc.record({
    op: fc.constant('moveToDeposit' as const),
    userId: userArb,
    amount: fc.tuple(fenArb, fc.boolean()).map(([a, back]) => (back ? -a : a)),
  }),
  fc.record({
    op: fc.constant('reserveWithdrawal' as const),
    userId: userArb,
    amount: fenArb,
    source: sourceArb,
  }),
  fc.record({ op: fc.constant('decideWithdrawal' as const), pick: fc.nat(), pay: fc.boolean() }),
  fc.record({ op: fc.constant('refundOrder' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('forfeitDeposit' as const), userId: userArb, hammer: fenArb }),
  fc.record({ op: fc.constant('payDeliveryFees' as const), userId: userArb, amount: fenArb }),
)

/** The rule a step posts and what it should do; null when there is nothing to do. */
function plan(world: World, step: Step): Planned | null {
  switch (step.op) {
    case 'recharge':
      return {
        userId: step.userId,
        legs: recharge(step.amount, step.fee),
        change: { deposit: step.amount },
      }
    case 'creditBalance':
      return {
        userId: step.userId,
        legs: creditBalance(step.amount),
        change: { balance: step.amount },
      }
    case 'creditDeposit':
      return {
        userId: step.userId,
        legs: creditDeposit(step.amount),
        change: { deposit: step.amount },
      }
    case 'payOrders': {
      const total = step.charges.reduce((s, c) => s + orderTotal(c), 0)
      return {
        userId: step.userId,
        legs: payOrders(step.charges, step.from),
        change: step.from === 'balance' ? { balance: -total } : {},
        record: () => {
          for (const charge of step.charges) world.paid.push({ userId: step.userId, charge })
        },
      }
    }
    case 'moveToDeposit':
      return {
        userId: step.userId,
        legs: moveToDeposit(step.amount),
        change: { balance: -step.amount, deposit: step.amount },
      }
    case 'reserveWithdrawal':
      return {
        userId: step.userId,
        legs: reserveWithdrawal(step.amount, step.source),
        change: { [step.source]: -step.amount, withdrawal: step.amount },
        record: () => world.withdrawals.push({ ...step }),
      }
    case 'decideWithdrawal': {
      const index = step.pick % Math.max(1, world.withdrawals.length)
      const w = world.withdrawals[index]
      if (!w) return null
      return {
        userId: w.userId,
        legs: step.pay ? payWithdrawal(w.amount) : refuseWithdrawal(w.amount, w.source),
        change: step.pay
          ? { withdrawal: -w.amount }
          : { withdrawal: -w.amount, [w.source]: w.amount },
        record: () => world.withdrawals.splice(index, 1),
      }
    }
    case 'refundOrder': {
      const index = step.pick % Math.max(1, world.paid.length)
      const order = world.paid[index]
      if (!order) return null
      return {
        userId: order.userId,
        legs: refundOrder(order.charge),
        change: { balance: orderTotal(order.charge) },
        record: () => world.paid.splice(index, 1),
      }
    }
    case 'forfeitDeposit': {
      // DESIGN §4: the hammer price, up to the deposit. With no deposit there is nothing to take.
      const taken = Math.min(step.hammer, holdsOf(world, step.userId).deposit)
      if (taken === 0) return null
      return { userId: step.userId, legs: forfeitDeposit(taken), change: { deposit: -taken } }
    }
    case 'payDeliveryFees':
      // docs/decisions/015: the shipment's fees leave the balance, refused when it cannot cover.
      return {
        userId: step.userId,
        legs: payDeliveryFees(step.amount),
        change: { balance: -step.amount },
      }
  }
}

/** The user's holdings after the step, and whether it would overdraw one of them. */
function afterStep(world: World, planned: Planned) {
  const holds = { ...holdsOf(world, planned.userId) }
  for (const [kind, amount] of Object.entries(planned.change) as [UserKind, number][]) {
    holds[kind] += amount
  }
  return { holds, overdraws: Object.values(holds).some((amount) => amount < 0) }
}

function expectSound(world: World): void {
  const { ledger } = world
  expect(ledger.accounts.reduce((s, a) => s + a.balance, 0)).toBe(0)
  for (const account of ledger.accounts) {
    const posted = ledger.postings
      .filter((p) => p.accountId === account.id)
      .reduce((s, p) => s + p.amount, 0)
    expect(account.balance).toBe(posted)
    if (isUserAccount(account.kind)) expect(account.balance).toBeGreaterThanOrEqual(0)
    expect(isUserAccount(account.kind)).toBe(account.userId !== PLATFORM)
  }
  for (const userId of USERS) {
    // Each user holds what the movements so far say, account by account.
    const holds = holdsOf(world, userId)
    expect({
      balance: ledger.balanceOf(userId, 'balance'),
      deposit: ledger.balanceOf(userId, 'deposit'),
      withdrawal: ledger.balanceOf(userId, 'withdrawal'),
    }).toEqual(holds)
    // Money held for withdrawal is exactly what the open requests hold.
    const open = world.withdrawals.filter((w) => w.userId === userId)
    expect(holds.withdrawal).toBe(open.reduce((s, w) => s + w.amount, 0))
  }
}

describe(`ledger over generated money movements (${RERUN})`, () => {
  it('keeps the sum at zero, user accounts non-negative, and refusals without effect', () => {
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 60 }), (steps) => {
        const world: World = {
          ledger: new MemoryLedger(),
          paid: [],
          withdrawals: [],
          holds: new Map(),
        }
        for (const step of steps) {
          const planned = plan(world, step)
          if (!planned) continue
          const before = world.ledger.snapshot()
          const transfers = world.ledger.transfers
          const { holds, overdraws } = afterStep(world, planned)
          const refusal = world.ledger.post(planned.userId, planned.legs)
          if (refusal) {
            refused++
            // The rules are balanced integers, so the only reason to refuse is an overdraft.
            expect(refusal).toBe('OVERDRAWN')
            expect(overdraws).toBe(true)
            expect(world.ledger.snapshot()).toBe(before)
            expect(world.ledger.transfers).toBe(transfers)
          } else {
            accepted++
            expect(overdraws).toBe(false)
            expect(world.ledger.transfers).toBe(transfers + 1)
            world.holds.set(planned.userId, holds)
            planned.record?.()
          }
          expectSound(world)
        }
      }),
      params,
    )
    // The generators reach both outcomes, so neither branch is checked vacuously.
    expect(accepted).toBeGreaterThan(NUM_RUNS)
    expect(refused).toBeGreaterThan(NUM_RUNS / 10)
  })
})
