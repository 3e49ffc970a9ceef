import type { Leg } from '@numisma/domain/postings'
import { describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { IdempotencyStore } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import { ForfeitService, OverdueJob } from './overdue'
import type { LockedAuctionOrder } from './overdue-repository'

/**
 * The overdue job and the staff forfeit over fakes. That the job marks an order once across
 * instances and that a forfeit happens once under concurrent calls is the integration test's
 * (apps/server/test/overdue.test.ts), on both databases.
 */
const y = (yuan: number) => yuan * 100
const NOW = Date.UTC(2026, 10, 27, 3)
const transact = ((work: (tx: Tx) => Promise<unknown>) => work({} as Tx)) as Transact

describe('OverdueJob', () => {
  const due = (...ids: number[]) => ids.map((id) => ({ id, dueAt: NOW - 1 }))

  function setupJob(pages: number[][], awaited: number[] = []) {
    const clock = new FakeClock(NOW)
    const owner = (id: number) => 100 + (id % 2)
    const orders = {
      lockDue: vi.fn(() => {
        clock.advance(1_000)
        return Promise.resolve(due(...(pages.shift() ?? [])))
      }),
      markOverdue: vi.fn((_tx: Tx, ids: readonly number[]) =>
        Promise.resolve(ids.map((id) => ({ id, userId: owner(id), title: `lot of ${id}` }))),
      ),
    }
    const stopProxies = vi.fn(() => Promise.resolve())
    const awaitingRemittance = vi.fn((_tx: Tx, ids: readonly number[]) =>
      Promise.resolve(new Set(ids.filter((id) => awaited.includes(id)))),
    )
    const notices = { add: vi.fn(() => Promise.resolve()) }
    const job = new OverdueJob({
      transact,
      orders,
      clock,
      stopProxies,
      awaitingRemittance,
      notices,
    })
    return { job, orders, stopProxies, awaitingRemittance, notices }
  }

  it('marks what it locked as due, judged by the clock read after the locks', async () => {
    const s = setupJob([[3, 4]])
    expect(await s.job.sweep()).toEqual([3, 4])
    expect(s.orders.lockDue).toHaveBeenCalledWith(expect.anything(), NOW, 100, undefined)
    expect(s.orders.markOverdue).toHaveBeenCalledWith(expect.anything(), [3, 4], NOW + 1_000)
  })

  it("stops the new overdue winners' proxies in the same transaction, once per winner", async () => {
    const s = setupJob([[3, 4, 5]])
    await s.job.sweep()
    expect(s.stopProxies).toHaveBeenCalledTimes(1)
    expect(s.stopProxies).toHaveBeenCalledWith(expect.anything(), [101, 100], NOW + 1_000)
  })

  it('tells each new overdue winner which lot, with a link to pay it', async () => {
    const s = setupJob([[3, 4]])
    await s.job.sweep()
    expect(s.notices.add.mock.calls.map((c) => c.slice(1))).toEqual([
      [101, 'order_overdue', { orderId: 3, title: 'lot of 3' }, '/account/pay?orderIds=3'],
      [100, 'order_overdue', { orderId: 4, title: 'lot of 4' }, '/account/pay?orderIds=4'],
    ])
  })

  it('leaves orders a waiting remittance notice names pending, and looks past them', async () => {
    // A full page of awaited orders must not hide the due ones behind it.
    const awaited = Array.from({ length: 100 }, (_, i) => i + 1)
    const s = setupJob([awaited, [101, 102]], awaited)
    expect(await s.job.sweep()).toEqual([101, 102])
    expect(s.orders.markOverdue).toHaveBeenNthCalledWith(1, expect.anything(), [], NOW + 1_000)
    expect(s.orders.lockDue).toHaveBeenLastCalledWith(expect.anything(), NOW + 1_000, 100, {
      id: 100,
      dueAt: NOW - 1,
    })
  })
})

function setupForfeit(order: LockedAuctionOrder | undefined, deposit: number, awaited = false) {
  const posts: { userId: number; kind: string; memo: string; legs: readonly Leg[] }[] = []
  const notices = { add: vi.fn(() => Promise.resolve()) }
  const orders = {
    lockOrder: vi.fn(() => Promise.resolve(order)),
    markForfeited: vi.fn(() => {
      if (!order || order.status !== 'overdue') return Promise.resolve(false)
      order.status = 'cancelled'
      return Promise.resolve(true)
    }),
  }
  const service = new ForfeitService({
    transact,
    clock: new FakeClock(NOW),
    orders,
    ledger: {
      post: vi.fn(
        (_tx: Tx, userId: number, t: { kind: string; memo: string }, legs: readonly Leg[]) => {
          posts.push({ userId, kind: t.kind, memo: t.memo, legs })
          return Promise.resolve(posts.length)
        },
      ),
    },
    heldDeposit: vi.fn(() => Promise.resolve({ deposit })),
    awaitingRemittance: vi.fn((_tx: Tx, ids: readonly number[]) =>
      Promise.resolve(new Set(awaited ? ids : [])),
    ),
    paymentOpen: vi.fn(() => Promise.resolve(new Set<number>())),
    idempotency: {
      claim: vi.fn(() => Promise.resolve({ kind: 'new' })),
      complete: vi.fn(() => Promise.resolve()),
    } as unknown as IdempotencyStore,
    notices,
  })
  return { service, posts, orders, notices }
}

const overdueOrder = (overrides: Partial<LockedAuctionOrder> = {}): LockedAuctionOrder => ({
  id: 42,
  userId: 5,
  kind: 'auction',
  status: 'overdue',
  hammer: y(3_000),
  ...overrides,
})
const STAFF = { idempotencyOwner: -1 }

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return (error as AppError).code
}

describe('ForfeitService', () => {
  it('takes the hammer price from a deposit that covers it, and closes the order, once', async () => {
    const s = setupForfeit(overdueOrder(), y(5_000))
    expect(await s.service.forfeit(42, STAFF)).toEqual({
      orderId: 42,
      userId: 5,
      hammer: y(3_000),
      taken: y(3_000),
      deposit: y(2_000),
      status: 'cancelled',
    })
    expect(s.posts).toEqual([
      {
        userId: 5,
        kind: 'forfeit',
        memo: 'forfeit order 42',
        legs: [
          { owner: 'user', kind: 'deposit', amount: -y(3_000) },
          { owner: 'platform', kind: 'platform_revenue', amount: y(3_000) },
        ],
      },
    ])
    expect(s.notices.add.mock.calls.map((c) => c.slice(1))).toEqual([
      [5, 'order_forfeited', { orderId: 42, amount: y(3_000) }, '/ucenter'],
    ])
    expect(await refusal(s.service.forfeit(42, STAFF))).toBe('NOT_PENDING')
    expect(s.posts).toHaveLength(1)
    expect(s.notices.add).toHaveBeenCalledTimes(1)
  })

  it('takes no more than the deposit, and nothing (but still closes) from an empty one', async () => {
    const capped = setupForfeit(overdueOrder(), y(500))
    expect(await capped.service.forfeit(42, STAFF)).toMatchObject({ taken: y(500), deposit: 0 })
    const empty = setupForfeit(overdueOrder(), 0)
    expect(await empty.service.forfeit(42, STAFF)).toMatchObject({ taken: 0, status: 'cancelled' })
    expect(empty.posts).toEqual([])
  })

  it('refuses an order that is not overdue, and answers 404 for a mall order or none', async () => {
    const pending = setupForfeit(overdueOrder({ status: 'pending_payment' }), y(5_000))
    expect(await refusal(pending.service.forfeit(42, STAFF))).toBe('ORDER_NOT_OVERDUE')
    const paid = setupForfeit(overdueOrder({ status: 'paid' }), y(5_000))
    expect(await refusal(paid.service.forfeit(42, STAFF))).toBe('ORDER_NOT_OVERDUE')
    const mall = setupForfeit(overdueOrder({ kind: 'mall' }), y(5_000))
    expect(await refusal(mall.service.forfeit(42, STAFF))).toBe('NOT_FOUND')
    const none = setupForfeit(undefined, y(5_000))
    expect(await refusal(none.service.forfeit(42, STAFF))).toBe('NOT_FOUND')
    for (const s of [pending, paid, mall, none]) expect(s.posts).toEqual([])
  })

  it('refuses an order a remittance notice waiting for staff names, and leaves it overdue', async () => {
    const order = overdueOrder()
    const s = setupForfeit(order, y(5_000), true)
    expect(await refusal(s.service.forfeit(42, STAFF))).toBe('ORDER_AWAITING_REMITTANCE')
    expect(s.orders.markForfeited).not.toHaveBeenCalled()
    expect(s.posts).toEqual([])
    expect(order.status).toBe('overdue')
  })
})
