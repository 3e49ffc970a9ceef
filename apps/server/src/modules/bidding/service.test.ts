import { DEFAULT_PRICE_STEPS } from '@numisma/domain/increments'
import type { LotState, ProxyMax } from '@numisma/domain/bid-engine'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { InProcessEventBus } from '../../platform/event-bus'
import type { IdempotencyStore } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { BiddingReads } from './reads-repository'
import type { BiddingRepository, Exposure, LockedLot } from './repository'
import { BiddingService } from './service'
import type { WatchRepository } from './watch-repository'

/**
 * BiddingService with fake repositories (the Immich pattern): the use cases — the quota check and
 * the early refusal of stale bids — run without a database.
 */
const YUAN = 100
const NOW = Date.UTC(2026, 10, 23, 2, 0, 0)

const buildLot = (overrides: Partial<LockedLot> = {}): LockedLot => ({
  id: 7,
  title: '光绪元宝',
  status: 'open',
  startPrice: 100 * YUAN,
  reservePrice: null,
  price: null,
  leaderId: null,
  leaderSince: 0,
  startsAt: NOW - 60_000,
  endsAt: NOW + 60 * 60_000,
  bidCount: 0,
  softCloseWindowSeconds: 300,
  softCloseExtendSeconds: 300,
  ...overrides,
})

const buildExposure = (overrides: Partial<Exposure> = {}): Exposure => ({
  deposit: 0,
  leading: [],
  proxies: [],
  unpaidOrders: 0,
  overdue: { hammer: 0, total: 0 },
  ...overrides,
})

function setup(
  options: {
    lot?: LockedLot
    exposure?: Exposure
    committedKey?: boolean
    overdue?: boolean
    /** Users with an overdue order, when it is not every one (`overdue`). */
    overdueUsers?: number[]
    proxies?: ProxyMax[]
  } = {},
) {
  const lot = options.lot ?? buildLot()
  const lots = {
    peekLot: vi.fn(() => Promise.resolve(lot)),
    lockLot: vi.fn(() => Promise.resolve(lot)),
    hasOverdueOrders: vi.fn((_tx: Tx, userId: number) =>
      Promise.resolve(options.overdue ?? (options.overdueUsers ?? []).includes(userId)),
    ),
    committedOverdue: vi.fn((userId: number) =>
      Promise.resolve(options.overdue ?? (options.overdueUsers ?? []).includes(userId)),
    ),
    proxies: vi.fn(() => Promise.resolve(options.proxies ?? [])),
    exposure: vi.fn(() => Promise.resolve(options.exposure ?? buildExposure())),
    saveState: vi.fn(() => Promise.resolve()),
    insertChanges: vi.fn(() => Promise.resolve()),
    leaderDisplay: vi.fn(() => Promise.resolve({ display: '藏友1234' })),
  }
  const reads = {
    priceSteps: vi.fn(() =>
      Promise.resolve(DEFAULT_PRICE_STEPS.map((s) => ({ from_amount: s.from, step: s.step }))),
    ),
  }
  const idempotency = {
    claim: vi.fn(() => Promise.resolve({ kind: 'new' as const })),
    complete: vi.fn(() => Promise.resolve()),
    committed: vi.fn(() => Promise.resolve(options.committedKey ?? false)),
  }
  const transact = vi.fn((work: (tx: Tx) => Promise<unknown>) => work({} as Tx))
  const service = new BiddingService({
    transact: transact as unknown as Transact,
    clock: new FakeClock(NOW),
    bus: new InProcessEventBus(),
    notices: { add: vi.fn(() => Promise.resolve()) },
    lots: lots as unknown as BiddingRepository,
    reads: reads as unknown as BiddingReads,
    watches: {} as unknown as WatchRepository,
    idempotency: idempotency as unknown as IdempotencyStore,
    options: { quotaMultiplier: 10 },
  })
  return { service, lots, transact, idempotency }
}

const codeOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('BiddingService quota check', () => {
  let s: ReturnType<typeof setup>
  beforeEach(() => {
    // Deposit 100 yuan → quota 1,000 yuan; 900 yuan already at stake on another lot.
    s = setup({
      exposure: buildExposure({ deposit: 100 * YUAN, leading: [{ id: 3, price: 900 * YUAN }] }),
    })
  })

  it('refuses a bid that would take exposure over the quota, and writes nothing', async () => {
    const error = await codeOf(s.service.bid(1, { lotId: 7, amount: 200 * YUAN, proxy: false }))
    expect(error.code).toBe('QUOTA_EXCEEDED')
    expect(error.details).toMatchObject({
      limit: 1_000 * YUAN,
      deposit: 100 * YUAN,
      exposure: 900 * YUAN,
      recharge: '/account/quotaRecharge',
    })
    expect(s.lots.saveState).not.toHaveBeenCalled()
    expect(s.lots.insertChanges).not.toHaveBeenCalled()
  })

  it('accepts a bid that fits, exactly up to the quota', async () => {
    const result = await s.service.bid(1, { lotId: 7, amount: 100 * YUAN, proxy: false })
    expect(result).toMatchObject({ leading: true, price: 100 * YUAN, notLeading: null })
    expect(s.lots.exposure).toHaveBeenCalledWith(expect.anything(), 1, { lock: true })
    expect(s.lots.saveState).toHaveBeenCalledOnce()
  })

  it('counts a proxy maximum, not the price it holds, against the quota', async () => {
    const error = await codeOf(s.service.bid(1, { lotId: 7, amount: 150 * YUAN, proxy: true }))
    expect(error.code).toBe('QUOTA_EXCEEDED')
  })
})

describe('BiddingService and overdue winners', () => {
  it('refuses a winner with an overdue order, inside the bid transaction, and writes nothing', async () => {
    const s = setup({ overdue: true, exposure: buildExposure({ deposit: 1_000 * YUAN }) })
    const error = await codeOf(s.service.bid(1, { lotId: 7, amount: 100 * YUAN, proxy: false }))
    expect(error.code).toBe('BIDDER_OVERDUE')
    expect(s.transact).toHaveBeenCalledOnce()
    expect(s.lots.hasOverdueOrders).toHaveBeenCalledWith(expect.anything(), 1)
    expect(s.lots.saveState).not.toHaveBeenCalled()
    expect(s.lots.insertChanges).not.toHaveBeenCalled()
  })

  it('never bids automatically for an overdue leader: their proxy stops, the price they hold stands', async () => {
    // Leader 2 holds 100 yuan with a proxy up to 2,000 yuan, and is overdue elsewhere.
    const lot = buildLot({ price: 100 * YUAN, leaderId: 2, leaderSince: NOW - 1_000, bidCount: 1 })
    const proxy = { userId: 2, max: 2_000 * YUAN, since: NOW - 1_000, active: true }
    const s = setup({
      lot,
      proxies: [proxy],
      overdueUsers: [2],
      exposure: buildExposure({ deposit: 1_000 * YUAN }),
    })
    const result = await s.service.bid(1, { lotId: 7, amount: 110 * YUAN, proxy: false })
    expect(result).toMatchObject({ leading: true, price: 110 * YUAN })
    expect(s.lots.insertChanges).toHaveBeenCalledWith(
      expect.anything(),
      7,
      [{ userId: 1, amount: 110 * YUAN, auto: false }],
      NOW,
    )
    // The stopped proxy is saved with the bid's state.
    const saved = s.lots.saveState.mock.calls[0] as unknown as [Tx, number, LotState]
    expect(saved[2].proxies).toContainEqual(expect.objectContaining({ userId: 2, active: false }))

    // The same lot with a leader in good standing: their proxy answers.
    const fine = setup({
      lot,
      proxies: [proxy],
      exposure: buildExposure({ deposit: 1_000 * YUAN }),
    })
    const answered = await fine.service.bid(1, { lotId: 7, amount: 110 * YUAN, proxy: false })
    expect(answered).toMatchObject({ leading: false, price: 120 * YUAN })
  })

  it('lets the same bid through once nothing is overdue', async () => {
    const s = setup({ exposure: buildExposure({ deposit: 1_000 * YUAN }) })
    const result = await s.service.bid(1, { lotId: 7, amount: 100 * YUAN, proxy: false })
    expect(result.leading).toBe(true)
  })
})

describe('BiddingService early refusal of stale bids', () => {
  // The committed price is 1,000 yuan: anything below 1,020 can only be refused.
  const committed = buildLot({ price: 1_000 * YUAN, leaderId: 2, bidCount: 5 })

  it('refuses a bid below the committed minimum before taking the lot lock', async () => {
    const s = setup({ lot: committed })
    const error = await codeOf(s.service.bid(1, { lotId: 7, amount: 500 * YUAN, proxy: false }))
    expect(error.code).toBe('BID_TOO_LOW')
    expect(error.details).toEqual({ minimum: 1_020 * YUAN })
    expect(s.transact).not.toHaveBeenCalled()
  })

  it('lets a bid at the minimum through to the lock', async () => {
    const s = setup({ lot: committed, exposure: buildExposure({ deposit: 1_000 * YUAN }) })
    await s.service.bid(1, { lotId: 7, amount: 1_020 * YUAN, proxy: false })
    expect(s.transact).toHaveBeenCalledOnce()
  })

  it('never refuses the leader early: their minimum depends on their proxy', async () => {
    const s = setup({ lot: committed })
    const error = await codeOf(s.service.bid(2, { lotId: 7, amount: 500 * YUAN, proxy: true }))
    expect(error.code).toBe('BID_TOO_LOW')
    expect(s.transact).toHaveBeenCalledOnce()
  })

  it('lets an overdue bidder through to the lock, which says why they may not bid', async () => {
    const s = setup({ lot: committed, overdueUsers: [1] })
    const error = await codeOf(s.service.bid(1, { lotId: 7, amount: 500 * YUAN, proxy: false }))
    expect(error.code).toBe('BIDDER_OVERDUE')
    expect(s.transact).toHaveBeenCalledOnce()
  })

  it('lets a retry whose first attempt committed through, to be replayed', async () => {
    const s = setup({ lot: committed, committedKey: true })
    s.idempotency.claim.mockResolvedValueOnce({
      kind: 'replay',
      result: { lotId: 7, leading: true },
    } as never)
    const result = await s.service.bid(
      1,
      { lotId: 7, amount: 500 * YUAN, proxy: false },
      'retry-key-0001',
    )
    expect(result).toEqual({ lotId: 7, leading: true })
    expect(s.lots.saveState).not.toHaveBeenCalled()
  })
})
