import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClosingSweeper } from '../src/modules/bidding/closing'
import type { PushEvent } from '../src/platform/event-bus'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { busDelivered } from './helpers/push-client'

const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000

describe.each(databases)('bidding over HTTP on $name', (kind) => {
  let t: TestApp
  let alice: Session
  let bob: Session
  let carol: Session
  const events: PushEvent[] = []

  beforeAll(async () => {
    t = await createTestApp(kind)
    t.app.bus.subscribe((e) => events.push(e))
    ;[alice, bob, carol] = [await t.signIn(), await t.signIn(), await t.signIn()]
    for (const u of [alice, bob, carol]) await creditDeposit(t, u.userId, 1_000_000 * YUAN)
  })
  afterAll(() => t.close())

  const bid = (
    as: Session,
    lotId: number,
    amount: number,
    proxy = false,
    headers?: Record<string, string>,
  ) => t.call({ method: 'POST', path: '/bidding/bid', as, body: { lotId, amount, proxy }, headers })
  const lot = async (id: number, as?: Session) =>
    (await t.call({ method: 'GET', path: `/auction/${id}`, as })).json().data
  const history = async (id: number, as?: Session) =>
    (await t.call({ method: 'GET', path: `/bidding/${id}`, as })).json().data

  it('refuses an anonymous bid', async () => {
    const lotId = await createLot(t)
    const res = await t.call({
      method: 'POST',
      path: '/bidding/bid',
      body: { lotId, amount: 100_000, proxy: false },
    })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('UNAUTHENTICATED')
  })

  it('accepts a first direct bid at the start price', async () => {
    const lotId = await createLot(t)
    const res = await bid(alice, lotId, 1_000 * YUAN)
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toMatchObject({
      lotId,
      price: 1_000 * YUAN,
      bidCount: 1,
      leading: true,
      myMax: null,
    })
    expect(await lot(lotId, alice)).toMatchObject({
      price: 1_000 * YUAN,
      leading: true,
      bidCount: 1,
    })
    expect(await lot(lotId, bob)).toMatchObject({ leading: false })
    const rows = await history(lotId, bob)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ amount: 1_000 * YUAN, auto: false, mine: false })
    expect(rows[0].bidder).toMatch(/^.\*\*\*.$/)
    expect((await history(lotId, alice))[0]).toMatchObject({ mine: true })
  })

  it('refuses with the exact codes of DESIGN §9', async () => {
    const lotId = await createLot(t)
    const low = await bid(alice, lotId, 900 * YUAN)
    expect(low.statusCode).toBe(409)
    expect(low.json()).toMatchObject({ code: 'BID_TOO_LOW', details: { minimum: 1_000 * YUAN } })

    const off = await bid(alice, lotId, 1_010 * YUAN)
    expect(off.statusCode).toBe(400)
    expect(off.json()).toMatchObject({
      code: 'BID_OFF_GRID',
      details: { below: 1_000 * YUAN, above: 1_020 * YUAN },
    })

    expect((await bid(alice, lotId, 1_000 * YUAN)).statusCode).toBe(200)
    const leading = await bid(alice, lotId, 1_020 * YUAN)
    expect(leading.json().code).toBe('ALREADY_LEADING')

    const preview = await createLot(t, { startsAt: t.clock.now() + MINUTE })
    expect((await bid(bob, preview, 1_000 * YUAN)).json().code).toBe('LOT_NOT_OPEN')
    const ended = await createLot(t, {
      startsAt: t.clock.now() - 10 * MINUTE,
      endsAt: t.clock.now() - 1,
    })
    expect((await bid(bob, ended, 1_000 * YUAN)).json().code).toBe('LOT_CLOSED')

    const missing = await bid(bob, 987_654, 1_000 * YUAN)
    expect(missing.statusCode).toBe(404)
    for (const body of [
      { lotId, amount: -5 },
      { amount: 100 },
      { lotId, amount: 'lots' },
      { lotId, amount: 1.5 },
    ]) {
      const res = await t.call({ method: 'POST', path: '/bidding/bid', as: bob, body })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('VALIDATION_FAILED')
    }
    expect((await lot(lotId)).bidCount).toBe(1)
  })

  it('refuses a bid beyond the quota with a link to recharge, and leaves the lot alone', async () => {
    const poor = await t.signIn()
    const lotId = await createLot(t)
    const res = await bid(poor, lotId, 1_000 * YUAN)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { limit: 0, recharge: '/account/quotaRecharge' },
    })
    await creditDeposit(t, poor.userId, 100 * YUAN) // limit 1,000 yuan
    expect((await bid(poor, lotId, 1_000 * YUAN)).statusCode).toBe(200)
    const other = await createLot(t, { startPrice: 5 * YUAN })
    expect((await bid(poor, other, 5 * YUAN)).json().code).toBe('QUOTA_EXCEEDED')
    expect((await lot(other)).bidCount).toBe(0)
  })

  it('resolves a direct bid against a proxy maximum (DESIGN §4)', async () => {
    const lotId = await createLot(t)
    events.length = 0
    const proxy = await bid(alice, lotId, 2_000 * YUAN, true)
    expect(proxy.json().data).toMatchObject({
      price: 1_000 * YUAN,
      leading: true,
      myMax: 2_000 * YUAN,
    })

    const under = await bid(bob, lotId, 1_500 * YUAN)
    expect(under.json().data).toMatchObject({ price: 1_520 * YUAN, leading: false })
    const equal = await bid(bob, lotId, 2_000 * YUAN)
    expect(equal.json().data).toMatchObject({ price: 2_000 * YUAN, leading: false })
    const over = await bid(bob, lotId, 2_050 * YUAN)
    expect(over.json().data).toMatchObject({ price: 2_050 * YUAN, leading: true })

    const rows = (await history(lotId)).map((r: { amount: number; auto: boolean }) => [
      r.amount / YUAN,
      r.auto,
    ])
    expect(rows).toEqual([
      [2_050, false],
      [2_000, true],
      [2_000, false],
      [1_520, true],
      [1_500, false],
      [1_000, true],
    ])
    await busDelivered()
    expect(events.filter((e) => e.type === 'outbid')).toEqual([
      { type: 'outbid', userId: Number(alice.userId), lotId, price: 2_050 * YUAN },
    ])
    expect(events.filter((e) => e.type === 'lot').length).toBe(4)
  })

  it('resolves proxy against proxy, raising to the reserve', async () => {
    const lotId = await createLot(t, { reservePrice: 1_500 * YUAN })
    expect((await bid(alice, lotId, 1_200 * YUAN, true)).json().data).toMatchObject({
      price: 1_000 * YUAN,
    })
    const res = await bid(bob, lotId, 3_000 * YUAN, true)
    expect(res.json().data).toMatchObject({
      price: 1_500 * YUAN,
      leading: true,
      myMax: 3_000 * YUAN,
    })
    expect((await lot(lotId)).reserveMet).toBe(true)
    const tie = await bid(carol, lotId, 3_000 * YUAN, true)
    expect(tie.json().data).toMatchObject({ price: 3_000 * YUAN, leading: false })
    expect(await lot(lotId, bob)).toMatchObject({ leading: true, myMax: 3_000 * YUAN })
  })

  it('lets the leader raise but never lower a proxy maximum, without moving the price', async () => {
    const lotId = await createLot(t)
    await bid(alice, lotId, 1_500 * YUAN, true)
    const raise = await bid(alice, lotId, 3_000 * YUAN, true)
    expect(raise.json().data).toMatchObject({
      price: 1_000 * YUAN,
      myMax: 3_000 * YUAN,
      leading: true,
    })
    const lower = await bid(alice, lotId, 2_000 * YUAN, true)
    expect(lower.json()).toMatchObject({ code: 'BID_TOO_LOW' })
  })

  it('cancels a proxy: bids stand, the maximum falls back to the price', async () => {
    const lotId = await createLot(t)
    await bid(alice, lotId, 5_000 * YUAN, true)
    await bid(bob, lotId, 2_000 * YUAN)
    const cancel = await t.call({
      method: 'POST',
      path: '/bidding/cancelProxy',
      as: alice,
      body: { lotId },
    })
    expect(cancel.json()).toEqual({ data: { lotId, cancelled: true } })
    expect(await lot(lotId, alice)).toMatchObject({
      price: 2_050 * YUAN,
      leading: true,
      myMax: null,
    })
    expect((await bid(bob, lotId, 2_100 * YUAN)).json().data).toMatchObject({ leading: true })
    const again = await t.call({
      method: 'POST',
      path: '/bidding/cancelProxy',
      as: alice,
      body: { lotId },
    })
    expect(again.statusCode).toBe(404)
    expect(again.json().code).toBe('PROXY_NOT_FOUND')
  })

  it('extends the end in the last 5 minutes, but never for a refused bid', async () => {
    const lotId = await createLot(t, { endsAt: t.clock.now() + 2 * MINUTE })
    const before = Date.parse((await lot(lotId)).endsAt)
    await bid(alice, lotId, 900 * YUAN) // refused: too low
    expect(Date.parse((await lot(lotId)).endsAt)).toBe(before)
    const res = await bid(alice, lotId, 1_000 * YUAN)
    expect(Date.parse(res.json().data.endsAt)).toBe(t.clock.now() + 5 * MINUTE)

    const early = await createLot(t, { endsAt: t.clock.now() + 30 * MINUTE })
    const untouched = Date.parse((await lot(early)).endsAt)
    expect(Date.parse((await bid(alice, early, 1_000 * YUAN)).json().data.endsAt)).toBe(untouched)
  })

  it('honours Idempotency-Key: a retry replays, a different body is a 422', async () => {
    const lotId = await createLot(t)
    const key = { 'idempotency-key': `bid-${lotId}-retry` }
    const first = await bid(carol, lotId, 1_000 * YUAN, false, key)
    const retry = await bid(carol, lotId, 1_000 * YUAN, false, key)
    expect(retry.statusCode).toBe(200)
    expect(retry.json()).toEqual(first.json())
    expect(await history(lotId)).toHaveLength(1)
    const reused = await bid(carol, lotId, 1_100 * YUAN, false, key)
    expect(reused.statusCode).toBe(422)
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('replays concurrent retries of one Idempotency-Key instead of bidding twice', async () => {
    const lotId = await createLot(t)
    const key = { 'idempotency-key': `bid-${lotId}-concurrent` }
    const results = await Promise.all(
      [1, 2, 3].map(() => bid(carol, lotId, 1_000 * YUAN, true, key)),
    )
    for (const res of results) expect(res.statusCode).toBe(200)
    expect(new Set(results.map((r) => r.body)).size).toBe(1)
    expect(await history(lotId)).toHaveLength(1)
  })

  it('closes lots: sold with an order (price + 10% fee, due in 3 days), unsold below the reserve', async () => {
    const sold = await createLot(t, { endsAt: t.clock.now() + 10 * MINUTE })
    const unsold = await createLot(t, {
      endsAt: t.clock.now() + 10 * MINUTE,
      reservePrice: 5_000 * YUAN,
    })
    const empty = await createLot(t, { endsAt: t.clock.now() + 10 * MINUTE })
    await bid(alice, sold, 1_000 * YUAN)
    await bid(bob, unsold, 2_000 * YUAN)
    t.clock.advance(10 * MINUTE)
    try {
      const sweeper = ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus)
      const closed = await sweeper.sweep()
      const outcome = Object.fromEntries(closed.map((c) => [c.lotId, c.outcome]))
      expect(outcome).toMatchObject({ [sold]: 'sold', [unsold]: 'unsold', [empty]: 'unsold' })
      expect(await sweeper.sweep()).toEqual([])
      const orders = await t.database.db
        .selectFrom('orders')
        .selectAll()
        .where('lot_id', 'in', [sold, unsold, empty])
        .execute()
      expect(orders).toHaveLength(1)
      expect(orders[0]).toMatchObject({
        user_id: Number(alice.userId),
        kind: 'auction',
        amount: 1_000 * YUAN,
        fee: 100 * YUAN,
        total: 1_100 * YUAN,
        status: 'pending_payment',
        due_at: t.clock.now() + 3 * 24 * 60 * MINUTE,
      })
      expect((await lot(sold)).status).toBe('sold')
      expect((await bid(carol, sold, 2_000 * YUAN)).json().code).toBe('LOT_CLOSED')
    } finally {
      t.clock.advance(-10 * MINUTE)
    }
  })

  it('counts an unpaid won order against the quota', async () => {
    const dave = await t.signIn()
    await creditDeposit(t, dave.userId, 200 * YUAN) // limit 2,000 yuan
    const first = await createLot(t, { endsAt: t.clock.now() + MINUTE })
    await bid(dave, first, 1_500 * YUAN)
    t.clock.advance(MINUTE)
    await ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus).sweep()
    t.clock.advance(-MINUTE)
    const second = await createLot(t)
    // 1,500 + 150 fee owed; 1,000 more would exceed 2,000.
    expect((await bid(dave, second, 1_000 * YUAN)).json().code).toBe('QUOTA_EXCEEDED')
  })

  it("lists my proxy bids, my bids and my watches — and nobody else's", async () => {
    const erin = await t.signIn()
    await creditDeposit(t, erin.userId, 100_000 * YUAN)
    const a = await createLot(t)
    const b = await createLot(t)
    await bid(erin, a, 3_000 * YUAN, true)
    await bid(erin, b, 1_000 * YUAN)
    await bid(alice, b, 1_100 * YUAN)

    const entrust = (
      await t.call({ method: 'GET', path: `/user/${erin.userId}/@entrust`, as: erin })
    ).json().data
    expect(entrust).toHaveLength(1)
    expect(entrust[0]).toMatchObject({ id: a, maxAmount: 3_000 * YUAN, state: 'active' })
    const totals = (
      await t.call({ method: 'GET', path: '/user/queryEntrustSortTotal', as: erin })
    ).json().data
    expect(totals).toEqual({ active: 1, outbid: 0, won: 0, lost: 0, cancelled: 0 })

    const trade = (
      await t.call({ method: 'GET', path: `/user/${erin.userId}/@trade`, as: erin })
    ).json().data
    const states = Object.fromEntries(
      trade.map((x: { id: number; state: string }) => [x.id, x.state]),
    )
    expect(states).toEqual({ [a]: 'leading', [b]: 'outbid' })
    const outbid = (
      await t.call({ method: 'GET', path: `/user/${erin.userId}/@trade?state=outbid`, as: erin })
    ).json().data
    expect(outbid.map((x: { id: number }) => x.id)).toEqual([b])

    const foreign = await t.call({
      method: 'GET',
      path: `/user/${alice.userId}/@entrust`,
      as: erin,
    })
    // Another user's id answers as if there were nothing there (DESIGN §9).
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('NOT_FOUND')

    expect(
      (await t.call({ method: 'POST', path: `/auction/${a}/@attention`, as: erin })).json().data,
    ).toEqual({ lotId: a, watching: true })
    await t.call({ method: 'POST', path: `/auction/${a}/@attention`, as: erin })
    const state = (
      await t.call({
        method: 'GET',
        path: `/auction/${a},${b}/@attention?userId=${erin.userId}`,
        as: erin,
      })
    ).json().data
    expect(state).toEqual([
      { lotId: a, watching: true },
      { lotId: b, watching: false },
    ])
    const watched = (
      await t.call({ method: 'GET', path: '/user/auction/queryUserAttentions', as: erin })
    ).json().data
    expect(watched.map((x: { id: number }) => x.id)).toEqual([a])
    await t.call({ method: 'DELETE', path: `/auction/${a}/@attention`, as: erin })
    expect(
      (await t.call({ method: 'GET', path: '/user/auction/queryUserAttentions', as: erin })).json()
        .data,
    ).toEqual([])
    expect(
      (await t.call({ method: 'POST', path: '/auction/99999999/@attention', as: erin })).statusCode,
    ).toBe(404)
  })

  it('keeps one user within quota when they bid on two lots at once', async () => {
    const frank = await t.signIn()
    await creditDeposit(t, frank.userId, 150 * YUAN) // limit 1,500 yuan
    const lots = [await createLot(t), await createLot(t), await createLot(t), await createLot(t)]
    const results = await Promise.all(lots.map((lotId) => bid(frank, lotId, 1_000 * YUAN)))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(results.filter((r) => r.json().code === 'QUOTA_EXCEEDED')).toHaveLength(3)
  })

  it('shows a proxy placed again after a cancel as active', async () => {
    const gina = await t.signIn()
    await creditDeposit(t, gina.userId, 100_000 * YUAN)
    const lotId = await createLot(t)
    await bid(gina, lotId, 2_000 * YUAN, true)
    await t.call({ method: 'POST', path: '/bidding/cancelProxy', as: gina, body: { lotId } })
    await bid(gina, lotId, 3_000 * YUAN, true)
    const entrust = (
      await t.call({ method: 'GET', path: `/user/${gina.userId}/@entrust`, as: gina })
    ).json().data
    expect(entrust.find((e: { id: number }) => e.id === lotId)).toMatchObject({
      state: 'active',
      maxAmount: 3_000 * YUAN,
    })
  })

  it('bids on the increment table the operator keeps in the database', async () => {
    const lotId = await createLot(t, { startPrice: 100 * YUAN })
    await t.database.db
      .updateTable('price_steps')
      .set({ step: 25 * YUAN })
      .where('from_amount', '=', 10_000)
      .execute()
    t.clock.advance(11_000)
    try {
      expect((await bid(alice, lotId, 100 * YUAN)).statusCode).toBe(200)
      const off = await bid(bob, lotId, 110 * YUAN) // on the default grid, not on a 25-yuan one
      expect(off.json()).toMatchObject({ code: 'BID_OFF_GRID' })
      expect((await bid(bob, lotId, 125 * YUAN)).json().data).toMatchObject({ price: 125 * YUAN })
    } finally {
      await t.database.db
        .updateTable('price_steps')
        .set({ step: 10 * YUAN })
        .where('from_amount', '=', 10_000)
        .execute()
      t.clock.advance(11_000)
    }
  })

  it('lets a leader raise their proxy when the increment table is due for a re-read', async () => {
    const lotId = await createLot(t)
    await bid(alice, lotId, 2_000 * YUAN, true)
    t.clock.advance(11_000) // the cached table is stale: the next bid re-reads it
    const raise = await bid(alice, lotId, 3_000 * YUAN, true)
    expect(raise.json().data).toMatchObject({ leading: true, myMax: 3_000 * YUAN })
  })

  it('keeps one lot consistent under 50 concurrent signed bidders', async () => {
    const lotId = await createLot(t, {
      startPrice: 100 * YUAN,
      endsAt: t.clock.now() + 30 * MINUTE,
    })
    const bidders: Session[] = []
    for (let i = 0; i < 50; i++) bidders.push(await t.signIn())
    await Promise.all(bidders.map((u) => creditDeposit(t, u.userId, 1_000_000 * YUAN)))
    const results = await Promise.all(
      bidders.map(async (u, i) => {
        const out: number[] = []
        for (let round = 0; round < 4; round++) {
          const current = await lot(lotId)
          const base = current.price ?? 90 * YUAN
          const amount = base + (10 + (i % 5) * 10) * YUAN // on the grid in 100-999
          const res = await bid(u, lotId, amount, i % 3 === 0)
          out.push(res.statusCode)
        }
        return out
      }),
    )
    const statuses = results.flat()
    expect(statuses.every((s) => s === 200 || s === 409 || s === 400)).toBe(true)
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(8)

    const final = await lot(lotId)
    const rows = await t.database.db
      .selectFrom('bids')
      .selectAll()
      .where('lot_id', '=', lotId)
      .orderBy('id')
      .execute()
    expect(final.bidCount).toBe(rows.length)
    for (let i = 1; i < rows.length; i++)
      expect(rows[i]!.amount).toBeGreaterThanOrEqual(rows[i - 1]!.amount)
    expect(rows.at(-1)!.amount).toBe(final.price)
    const leaders = await t.database.db
      .selectFrom('lots')
      .select('leader_id')
      .where('id', '=', lotId)
      .execute()
    expect(leaders).toHaveLength(1)
    expect(rows.at(-1)!.user_id).toBe(leaders[0]!.leader_id)

    // Three sweepers at once still close it exactly once with one order.
    t.clock.advance(40 * MINUTE)
    try {
      const sweepers = [0, 1, 2].map(() =>
        ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus),
      )
      const closed = (await Promise.all(sweepers.map((s) => s.sweep())))
        .flat()
        .filter((c) => c.lotId === lotId)
      expect(closed).toHaveLength(1)
      const orders = await t.database.db
        .selectFrom('orders')
        .selectAll()
        .where('lot_id', '=', lotId)
        .execute()
      expect(orders).toHaveLength(1)
      expect(orders[0]!.user_id).toBe(leaders[0]!.leader_id)
    } finally {
      t.clock.advance(-40 * MINUTE)
    }
  })
})
