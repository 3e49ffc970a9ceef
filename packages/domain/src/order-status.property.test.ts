import { ORDER_KINDS, ORDER_STATUSES, type OrderStatus } from '@numisma/contracts/orders'
import { isErrorCode } from '@numisma/contracts/errors'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  autoCompleteAt,
  type DeliveryMethod,
  isTerminal,
  ORDER_EVENTS,
  ORDER_GROUP_STATUSES,
  ORDER_GROUPS,
  type OrderEvent,
  type OrderFacts,
  orderGroup,
  transition,
} from './order-status'

/**
 * The order machine against its specification written as data: every legal transition (DESIGN
 * §6, §9; the table in order-status.ts) with the facts it needs, checked over every status, kind,
 * delivery method, offline flag and time around the deadlines — everything else refused with the
 * event's code — and random event sequences that never leave the statuses of DESIGN §9 nor a
 * terminal one.
 *
 * Reproduce a failure: FC_SEED=<seed> [FC_PATH=<path>] npx vitest run --project unit packages/domain/src/order-status
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 2_000)
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
const PATH = process.env.FC_PATH
const RERUN = `FC_SEED=${SEED} npx vitest run --project unit packages/domain/src/order-status`
const params = { numRuns: NUM_RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) }

const NOW = 1_800_000_000_000
const DAY = 86_400_000

interface Rule {
  event: OrderEvent
  from: readonly OrderStatus[]
  /** null: the status does not change. */
  to: OrderStatus | null
  when: (o: OrderFacts, now: number) => boolean
}

const any = () => true
const isDue = (o: OrderFacts, now: number) => o.dueAt !== null && o.dueAt <= now
const stillPayable = (o: OrderFacts, now: number) =>
  o.kind === 'auction' || o.paidOffline || !isDue(o, now)

/** The legal transitions, one row each. */
const RULES: readonly Rule[] = [
  { event: 'pay', from: ['pending_payment', 'overdue'], to: 'paid', when: stillPayable },
  { event: 'cancel', from: ['pending_payment'], to: 'cancelled', when: (o) => o.kind === 'mall' },
  {
    event: 'expire',
    from: ['pending_payment'],
    to: 'cancelled',
    when: (o, now) => o.kind === 'mall' && isDue(o, now) && !o.paidOffline,
  },
  {
    event: 'markOverdue',
    from: ['pending_payment'],
    to: 'overdue',
    when: (o, now) => o.kind === 'auction' && isDue(o, now) && !o.paidOffline,
  },
  {
    event: 'forfeit',
    from: ['overdue'],
    to: 'cancelled',
    when: (o) => o.kind === 'auction' && !o.paidOffline,
  },
  { event: 'bookCounter', from: ['pending_payment', 'overdue'], to: null, when: stillPayable },
  {
    event: 'settleAtCounter',
    from: ['pending_payment', 'overdue'],
    to: 'completed',
    when: stillPayable,
  },
  { event: 'applyDelivery', from: ['paid'], to: 'delivery_applied', when: any },
  {
    event: 'ship',
    from: ['delivery_applied'],
    to: 'shipped',
    when: (o) => o.deliveryMethod === 'express',
  },
  {
    event: 'handOver',
    from: ['delivery_applied'],
    to: 'completed',
    when: (o) => o.deliveryMethod === 'pickup',
  },
  { event: 'confirmReceipt', from: ['shipped'], to: 'completed', when: any },
  {
    event: 'autoComplete',
    from: ['shipped'],
    to: 'completed',
    when: (o, now) => o.shippedAt !== null && now >= autoCompleteAt(o.shippedAt),
  },
]

/** The codes each event may refuse with (the server's codes for the same refusal). */
const REFUSALS: Record<OrderEvent, readonly string[]> = {
  pay: ['ORDER_NOT_PAYABLE'],
  cancel: ['ORDER_NOT_CANCELLABLE'],
  expire: ['ORDER_NOT_CANCELLABLE', 'ORDER_NOT_DUE', 'ORDER_PAID_OFFLINE'],
  markOverdue: ['NOT_PENDING', 'ORDER_NOT_DUE', 'ORDER_PAID_OFFLINE'],
  forfeit: ['NOT_PENDING', 'ORDER_NOT_OVERDUE', 'ORDER_PAID_OFFLINE'],
  bookCounter: ['ORDER_NOT_BOOKABLE'],
  settleAtCounter: ['ORDER_NOT_PAYABLE'],
  applyDelivery: ['ORDER_NOT_SHIPPABLE'],
  ship: ['ORDER_NOT_SHIPPABLE'],
  handOver: ['ORDER_NOT_SHIPPABLE'],
  confirmReceipt: ['ORDER_NOT_RECEIVABLE'],
  autoComplete: ['ORDER_NOT_RECEIVABLE', 'ORDER_NOT_DUE'],
}

function expected(o: OrderFacts, event: OrderEvent, now: number): OrderStatus | undefined {
  const rule = RULES.find((r) => r.event === event && r.from.includes(o.status) && r.when(o, now))
  return rule ? (rule.to ?? o.status) : undefined
}

const METHODS: readonly (DeliveryMethod | null)[] = [null, 'express', 'pickup']
/** Times around every deadline the machine knows: due, and 15 days after shipping. */
const OFFSETS = [-DAY, -1, 0, 1, 15 * DAY - 1, 15 * DAY, 30 * DAY]

function* everyOrder(): Generator<OrderFacts> {
  for (const status of ORDER_STATUSES)
    for (const kind of ORDER_KINDS)
      for (const deliveryMethod of METHODS)
        for (const paidOffline of [false, true])
          for (const dueAt of [null, NOW])
            for (const shippedAt of [null, NOW])
              yield { status, kind, deliveryMethod, paidOffline, dueAt, shippedAt }
}

describe(`order state machine (DESIGN §6, §9) — seed ${SEED}; rerun: ${RERUN}`, () => {
  it('takes every legal transition from every state, and refuses every other with its code', () => {
    let legal = 0
    let refused = 0
    // Collected, then judged once: 28,000 cases are too many for one expect each.
    const wrong: string[] = []
    for (const o of everyOrder()) {
      for (const event of ORDER_EVENTS) {
        for (const offset of OFFSETS) {
          const now = NOW + offset
          const result = transition(o, event, now)
          const want = expected(o, event, now)
          const name = `${JSON.stringify(o)} --${event}@${offset}--> ${JSON.stringify(result)}`
          if (want === undefined) {
            refused++
            if (result.ok || !REFUSALS[event].includes(result.code)) wrong.push(name)
          } else {
            legal++
            if (!result.ok || result.status !== want) wrong.push(`${name}, want ${want}`)
          }
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([])
    // Both sides are exercised, for every event.
    expect(legal).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
    for (const event of ORDER_EVENTS) {
      const some = [...everyOrder()].some((o) =>
        OFFSETS.some((d) => transition(o, event, NOW + d).ok),
      )
      expect(some, event).toBe(true)
    }
  })

  it('refuses with codes of the error catalogue', () => {
    for (const codes of Object.values(REFUSALS)) {
      for (const code of codes) expect(isErrorCode(code), code).toBe(true)
    }
  })

  it('lets nothing out of a terminal status', () => {
    for (const o of everyOrder()) {
      if (!isTerminal(o.status)) continue
      for (const event of ORDER_EVENTS) {
        for (const offset of OFFSETS) expect(transition(o, event, NOW + offset).ok).toBe(false)
      }
    }
  })

  it('reaches every status from a new order', () => {
    const seen = new Set<OrderStatus>(['pending_payment'])
    const frontier: OrderFacts[] = [...everyOrder()].filter((o) => o.status === 'pending_payment')
    while (frontier.length > 0) {
      const o = frontier.pop()!
      for (const event of ORDER_EVENTS) {
        for (const offset of OFFSETS) {
          const r = transition(o, event, NOW + offset)
          if (r.ok && !seen.has(r.status)) {
            seen.add(r.status)
            frontier.push(...[...everyOrder()].filter((x) => x.status === r.status))
          }
        }
      }
    }
    expect([...seen].sort()).toEqual([...ORDER_STATUSES].sort())
  })

  it('random event sequences stay within the statuses, and a refusal changes nothing', () => {
    const step = fc.record({
      event: fc.constantFrom(...ORDER_EVENTS),
      advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 * DAY })),
      method: fc.constantFrom<DeliveryMethod>('express', 'pickup'),
      offline: fc.boolean(),
    })
    fc.assert(
      fc.property(
        fc.constantFrom(...ORDER_KINDS),
        fc.array(step, { maxLength: 40 }),
        (kind, steps) => {
          let now = NOW
          let o: OrderFacts = {
            kind,
            status: 'pending_payment',
            dueAt: now + (kind === 'mall' ? 30 * 60_000 : 3 * DAY),
            shippedAt: null,
            deliveryMethod: null,
            paidOffline: false,
          }
          const path: OrderStatus[] = [o.status]
          for (const s of steps) {
            now += s.advance
            if (s.event === 'bookCounter') o = { ...o, paidOffline: s.offline || o.paidOffline }
            const before = Object.freeze({ ...o })
            const r = transition(before, s.event, now)
            if (!r.ok) {
              expect(isErrorCode(r.code)).toBe(true)
              continue
            }
            expect(ORDER_STATUSES).toContain(r.status)
            expect(isTerminal(before.status)).toBe(false)
            o = {
              ...o,
              status: r.status,
              deliveryMethod: s.event === 'applyDelivery' ? s.method : o.deliveryMethod,
              shippedAt: s.event === 'ship' ? now : o.shippedAt,
            }
            path.push(r.status)
          }
          // Goods are never shipped or completed by delivery before they were paid.
          const paidAt = path.indexOf('paid')
          const shipped = path.indexOf('shipped')
          if (shipped >= 0) expect(paidAt).toBeGreaterThanOrEqual(0)
          if (shipped >= 0) expect(paidAt).toBeLessThan(shipped)
          // Terminal means last.
          const end = path.findIndex((s) => isTerminal(s))
          if (end >= 0) expect(end).toBe(path.length - 1)
        },
      ),
      params,
    )
  })

  it('puts each status in at most one group, and every status but cancelled in one', () => {
    for (const status of ORDER_STATUSES) {
      const groups = ORDER_GROUPS.filter((g) => ORDER_GROUP_STATUSES[g].includes(status))
      expect(groups.length).toBe(status === 'cancelled' ? 0 : 1)
      expect(orderGroup(status)).toBe(groups[0] ?? null)
    }
  })
})
