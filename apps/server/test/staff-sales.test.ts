import { AUCTION_PAYMENT_DAYS } from '@numisma/domain/fees'
import type {
  LiveView,
  OverdueOrder,
  SaleResults,
  SalesSpecial,
} from '@numisma/contracts/staff-sales'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { overdueJobFor } from '../src/app'
import { ClosingSweeper } from '../src/modules/bidding/closing'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLots, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'
import { winLot } from './helpers/money'

/** Issue 12 · the console's sales area: live view, closing results, relist, overdue winners. */
const databases = await testDatabases()
const YUAN = 100
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const masked = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(7)}`
/** Cells on a CSV line (quoted cells hold no quotes here). */
const cells = (line: string) => line.replace(/"[^"]*"/g, 'x').split(',').length

describe.each(databases)('the sales area on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())

  const bid = async (as: Session, lotId: number, amount: number) => {
    const res = await t.call({
      method: 'POST',
      path: '/bidding/bid',
      as,
      body: { lotId, amount, proxy: false },
    })
    expect(res.statusCode, res.body).toBe(200)
  }
  const watch = async (as: Session, lotId: number) => {
    const res = await t.call({ method: 'POST', path: `/auction/${lotId}/@attention`, as })
    expect(res.statusCode, res.body).toBe(200)
  }
  const bidder = async () => {
    const user = await t.signIn()
    await creditDeposit(t, user.userId, 100_000 * YUAN)
    return user
  }
  const specialOf = async (lotId: number) =>
    (
      await t.database.db
        .selectFrom('lots')
        .select('special_id')
        .where('id', '=', lotId)
        .executeTakeFirstOrThrow()
    ).special_id
  /** A special open for new lots, created by staff as the console does. */
  const openSpecial = async (endsInMs = 2 * DAY) => {
    const res = await admin('POST', '/specials', {
      title: '重新上拍专场',
      startsAt: new Date(t.clock.now() - MINUTE).toISOString(),
      endsAt: new Date(t.clock.now() + endsInMs).toISOString(),
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { id: number } }>().data.id
  }
  const sweep = () => ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus).sweep()
  const results = async (specialId: number) => {
    const res = await admin('GET', `/sales/specials/${specialId}/results`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: SaleResults }>().data
  }
  /** Three lots closing a minute from now: one sold, one below its reserve, one without bids. */
  const closedSale = async () => {
    const lotIds = await createLots(t, 3, {
      endsAt: t.clock.now() + MINUTE,
      softCloseWindowSeconds: 0,
    })
    await t.database.db
      .updateTable('lots')
      .set({ reserve_price: 5_000 * YUAN })
      .where('id', '=', lotIds[1]!)
      .execute()
    const alice = await bidder()
    await bid(alice, lotIds[0]!, 1_200 * YUAN)
    await bid(alice, lotIds[1]!, 1_500 * YUAN)
    t.clock.advance(3 * MINUTE)
    await sweep()
    return { lotIds, specialId: await specialOf(lotIds[0]!), alice }
  }

  it('the live view shows each lot’s price, bids, watchers, leader (masked) and reserve, and the totals', async () => {
    const lotIds = await createLots(t, 3)
    const specialId = await specialOf(lotIds[0]!)
    await t.database.db
      .updateTable('lots')
      .set({ reserve_price: 2_000 * YUAN })
      .where('id', '=', lotIds[1]!)
      .execute()
    const [alice, bob, carol] = [await bidder(), await bidder(), await t.signIn()]
    await bid(alice, lotIds[0]!, 1_000 * YUAN)
    await bid(bob, lotIds[0]!, 1_100 * YUAN)
    await bid(alice, lotIds[1]!, 1_000 * YUAN)
    for (const who of [alice, bob, carol]) await watch(who, lotIds[0]!)
    await watch(carol, lotIds[2]!)

    const support = await staffCaller(t, ['support'])
    const res = await support('GET', `/sales/specials/${specialId}/live`)
    expect(res.statusCode, res.body).toBe(200)
    const view = res.json<{ data: LiveView }>().data
    expect(view.special).toMatchObject({ id: specialId, state: 'running', lotCount: 3 })
    expect(view.lots.map((l) => l.id)).toEqual(lotIds)
    expect(view.lots[0]).toMatchObject({
      lotNo: 1,
      price: 1_100 * YUAN,
      bidCount: 2,
      watchers: 3,
      leader: { userId: Number(bob.userId), mobile: masked(bob.mobile) },
      reserveMet: true,
      status: 'live',
    })
    expect(view.lots[1]).toMatchObject({
      price: 1_000 * YUAN,
      bidCount: 1,
      watchers: 0,
      reservePrice: 2_000 * YUAN,
      reserveMet: false,
      leader: { userId: Number(alice.userId) },
    })
    expect(view.lots[2]).toMatchObject({ price: null, bidCount: 0, watchers: 1, leader: null })
    expect(view.totals).toMatchObject({ lots: 3, sold: 0, hammer: 0, bids: 3, watchers: 4 })

    const specials = await support('GET', '/sales/specials')
    const listed = specials.json<{ data: { id: number; state: string }[] }>().data
    expect(listed.find((s) => s.id === specialId)?.state).toBe('running')
    // Running specials come before every closed one.
    const firstClosed = listed.findIndex((s) => s.state === 'closed')
    const lastRunning = listed.map((s) => s.state).lastIndexOf('running')
    if (firstClosed >= 0) expect(lastRunning).toBeLessThan(firstClosed)

    expect((await admin('GET', '/sales/specials/999999/live')).statusCode).toBe(404)
  })

  it('the specials list gives a sale’s real end (stagger and soft-close extensions) and its state as it closes', async () => {
    const lotIds = await createLots(t, 3, { endsAt: t.clock.now() + 10 * MINUTE })
    const specialId = await specialOf(lotIds[0]!)
    const listed = async () => {
      const res = await admin('GET', '/sales/specials')
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ data: SalesSpecial[] }>().data.find((s) => s.id === specialId)!
    }
    const nominal = t.clock.now() + 10 * MINUTE
    // Three lots 30 s apart, as the catalogue staggers them: the last closes a minute after the
    // special's nominal end (when its first lot closes).
    for (const [i, id] of lotIds.entries()) {
      await t.database.db
        .updateTable('lots')
        .set({ ends_at: nominal + i * 30_000 })
        .where('id', '=', id)
        .execute()
    }
    expect(await listed()).toMatchObject({
      state: 'running',
      endsAt: new Date(nominal).toISOString(),
      lastLotEndsAt: new Date(nominal + MINUTE).toISOString(),
    })
    // A bid inside the last lot's soft-close window moves the special's end with it.
    t.clock.advance(10 * MINUTE + 50_000)
    await bid(await bidder(), lotIds[2]!, 1_000 * YUAN)
    const extended = Date.parse((await listed()).lastLotEndsAt!)
    expect(extended).toBeGreaterThan(nominal + MINUTE)
    t.clock.advance(extended - t.clock.now() + 1_000)
    await sweep()
    expect(await listed()).toMatchObject({
      state: 'closed',
      lastLotEndsAt: new Date(extended).toISOString(),
    })
  })

  it('closing results: sold with buyer and order, unsold below reserve or without bids, totals and CSV', async () => {
    const { lotIds, specialId, alice } = await closedSale()
    const view = await results(specialId)
    expect(view.special.state).toBe('closed')
    const [sold, belowReserve, noBids] = view.lots
    expect(sold).toMatchObject({
      id: lotIds[0],
      status: 'sold',
      hammer: 1_200 * YUAN,
      highestBid: 1_200 * YUAN,
      unsoldReason: null,
      buyer: { userId: Number(alice.userId), mobile: masked(alice.mobile) },
      order: { status: 'pending_payment' },
      relistable: false,
      relistedAs: null,
    })
    expect(sold!.order!.id).toBeGreaterThan(0)
    // Below its reserve: no hammer, but the highest bid and whom the house may call about it.
    expect(belowReserve).toMatchObject({
      status: 'unsold',
      unsoldReason: 'reserve_not_met',
      reservePrice: 5_000 * YUAN,
      hammer: null,
      highestBid: 1_500 * YUAN,
      highestBidder: { userId: Number(alice.userId), mobile: masked(alice.mobile) },
      buyer: null,
      order: null,
      relistable: true,
    })
    expect(noBids).toMatchObject({
      status: 'unsold',
      unsoldReason: 'no_bids',
      hammer: null,
      highestBid: null,
      highestBidder: null,
      bidCount: 0,
      relistable: true,
    })
    expect(view.totals).toMatchObject({
      lots: 3,
      sold: 1,
      unsold: 2,
      hammer: 1_200 * YUAN,
      bids: 2,
      sellThrough: 33.3,
    })

    const csv = await admin('GET', `/sales/specials/${specialId}/results.csv`)
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-type']).toContain('text/csv')
    expect(csv.headers['content-disposition']).toContain(`special-${specialId}-results.csv`)
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n')
    expect(lines[0]).toBe(
      '拍品号,拍品,结果,保留价（元）,落槌价（元）,最高出价（元）,出价次数,买家ID,买家手机,最高出价人ID,最高出价人手机,订单号,订单状态,重新上拍为',
    )
    const who = `${alice.userId},${masked(alice.mobile)}`
    expect(lines[1]).toBe(
      `1,民国三年袁世凯像壹圆 1,成交,,1200.00,1200.00,1,${who},${who},${sold!.order!.id},待付款,`,
    )
    expect(lines[2]).toBe(
      `2,民国三年袁世凯像壹圆 2,"流拍（未达保留价 ¥5,000.00）",5000.00,,1500.00,1,,,${who},,,`,
    )
    expect(lines[3]).toBe('3,民国三年袁世凯像壹圆 3,流拍（无人出价）,,,,0,,,,,,,')
    expect(lines.every((l) => l === '' || l.startsWith('成交率') || cells(l) === 14)).toBe(true)
    expect(csv.body).toContain('成交率,33.3%')
  })

  it('relists an unsold lot once, copying the item, and refuses a second relist and a sold lot', async () => {
    const { lotIds } = await closedSale()
    const photos = ['/svc/media/a.svg', '/svc/media/b.svg']
    await t.database.db
      .updateTable('lots')
      .set({
        images: JSON.stringify(photos),
        grade_code: 65,
        grading_service: 'PCGS',
        cert_no: '12345678',
        export_banned: 1,
        description: '原光，包浆自然',
      })
      .where('id', '=', lotIds[2]!)
      .execute()
    const target = await openSpecial()
    const cataloguer = await staffCaller(t, ['cataloguer'])

    const res = await cataloguer('POST', `/sales/lots/${lotIds[2]}/relist`, {
      specialId: target,
      startPrice: 800 * YUAN,
    })
    expect(res.statusCode, res.body).toBe(200)
    const relisted = res.json<{ data: { newLotId: number; lotNo: number } }>().data
    expect(relisted).toMatchObject({ lotId: lotIds[2], specialId: target, lotNo: 1 })
    const copy = await t.database.db
      .selectFrom('lots')
      .selectAll()
      .where('id', '=', relisted.newLotId)
      .executeTakeFirstOrThrow()
    expect(copy).toMatchObject({
      special_id: target,
      title: '民国三年袁世凯像壹圆 3',
      description: '原光，包浆自然',
      images: JSON.stringify(photos),
      grade_code: 65,
      grading_service: 'PCGS',
      cert_no: '12345678',
      export_banned: 1,
      start_price: 800 * YUAN,
      status: 'open',
      bid_count: 0,
    })

    const again = await cataloguer('POST', `/sales/lots/${lotIds[2]}/relist`, {
      specialId: target,
    })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({
      code: 'LOT_ALREADY_RELISTED',
      details: { newLotId: relisted.newLotId },
    })
    const sold = await cataloguer('POST', `/sales/lots/${lotIds[0]}/relist`, { specialId: target })
    expect(sold.statusCode).toBe(409)
    expect(sold.json()).toMatchObject({
      code: 'LOT_NOT_RELISTABLE',
      details: { status: 'sold', orderStatus: 'pending_payment' },
    })
    const offGrid = await cataloguer('POST', `/sales/lots/${lotIds[1]}/relist`, {
      specialId: target,
      startPrice: 1_234,
    })
    expect(offGrid.statusCode).toBe(400)
    expect(offGrid.json().code).toBe('BID_OFF_GRID')
    // The catalogue's own rule for a new lot: the reserve not below the start.
    const reserveLow = await cataloguer('POST', `/sales/lots/${lotIds[1]}/relist`, {
      specialId: target,
      startPrice: 1_000 * YUAN,
      reservePrice: 500 * YUAN,
    })
    expect(reserveLow.json().code).toBe('RESERVE_BELOW_START')

    // The old lot shows where it went; the results say it may not be relisted again.
    const after = await results(await specialOf(lotIds[0]!))
    expect(after.lots[2]).toMatchObject({
      relistedAs: { lotId: relisted.newLotId, specialId: target },
      relistable: false,
    })

    // Who did it, before and after, and the refusals, in the audit log.
    const audit = await admin('GET', `/audit?target=lot:${lotIds[2]}`)
    const entries = audit.json<{
      data: { statusCode: number; errorCode: string | null; before: unknown; after: unknown }[]
    }>().data
    expect(entries).toHaveLength(2)
    const ok = entries.find((e) => e.statusCode === 200)!
    expect(ok.before).toMatchObject({ lotId: lotIds[2], status: 'unsold', relistedAs: null })
    expect(ok.after).toMatchObject({ newLotId: relisted.newLotId, specialId: target })
    expect(entries.find((e) => e.statusCode === 409)?.errorCode).toBe('LOT_ALREADY_RELISTED')
  })

  it('refuses a relist into a closed special, by a support member (403), and of an open lot', async () => {
    const { lotIds } = await closedSale()
    const closing = await openSpecial(MINUTE)
    t.clock.advance(2 * MINUTE)
    const cataloguer = await staffCaller(t, ['cataloguer'])
    const closed = await cataloguer('POST', `/sales/lots/${lotIds[2]}/relist`, {
      specialId: closing,
    })
    expect(closed.statusCode).toBe(409)
    expect(closed.json().code).toBe('SPECIAL_CLOSED')

    const target = await openSpecial()
    for (const roles of [['support'], ['cashier'], ['shipping']] as const) {
      const caller = await staffCaller(t, [...roles])
      const refused = await caller('POST', `/sales/lots/${lotIds[2]}/relist`, {
        specialId: target,
      })
      expect(refused.statusCode).toBe(403)
      expect(refused.json().code).toBe('FORBIDDEN')
    }
    const [open] = await createLots(t, 1)
    const running = await cataloguer('POST', `/sales/lots/${open}/relist`, { specialId: target })
    expect(running.json()).toMatchObject({
      code: 'LOT_NOT_RELISTABLE',
      details: { status: 'open' },
    })
    const audit = await admin('GET', `/audit?target=lot:${lotIds[2]}`)
    const codes = audit
      .json<{ data: { errorCode: string | null }[] }>()
      .data.map((e) => e.errorCode)
    expect(codes).toContain('SPECIAL_CLOSED')
    // A refusal by the guard happens before any handler names the lot; it is logged by route.
    const forbidden = await admin('GET', '/audit?route=%2Fsales%2Flots&limit=200')
    expect(
      forbidden
        .json<{ data: { errorCode: string | null }[] }>()
        .data.filter((e) => e.errorCode === 'FORBIDDEN').length,
    ).toBeGreaterThanOrEqual(3)
  })

  it('two relists of one lot at once: one new lot, one refusal', async () => {
    const { lotIds } = await closedSale()
    const target = await openSpecial()
    const cataloguer = await staffCaller(t, ['cataloguer'])
    const answers = await Promise.all(
      [0, 1].map(() =>
        cataloguer('POST', `/sales/lots/${lotIds[2]}/relist`, { specialId: target }),
      ),
    )
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
    const copies = await t.database.db
      .selectFrom('lots')
      .select('id')
      .where('special_id', '=', target)
      .execute()
    expect(copies).toHaveLength(1)
  })

  it('overdue winners: listed with their deposit, forfeited by a cashier, then relisted by a cataloguer', async () => {
    const winner = await t.signIn()
    const won = await winLot(t, winner, 600 * YUAN, { deposit: 400 * YUAN })
    t.clock.advance(AUCTION_PAYMENT_DAYS * DAY)
    await overdueJobFor(t.database, t.clock).sweep()
    // Staff sessions last 12 hours; the clock moved by days.
    admin = await staffCaller(t)
    const cashier = await staffCaller(t, ['cashier'])
    const cataloguer = await staffCaller(t, ['cataloguer'])
    const support = await staffCaller(t, ['support'])
    expect((await support('GET', '/sales/overdue')).statusCode).toBe(403)

    const listed = async (as: StaffCall) => {
      const res = await as('GET', '/sales/overdue')
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ data: OverdueOrder[] }>().data.find((o) => o.orderId === won.orderId)
    }
    expect(await listed(cashier)).toMatchObject({
      status: 'overdue',
      lotId: won.lotId,
      hammer: 600 * YUAN,
      deposit: 400 * YUAN,
      buyer: { userId: Number(winner.userId), mobile: masked(winner.mobile) },
      relistedAs: null,
    })
    const target = await openSpecial()
    // Not while the order is only overdue: the winner may still pay.
    const early = await cataloguer('POST', `/sales/lots/${won.lotId}/relist`, {
      specialId: target,
    })
    expect(early.json()).toMatchObject({
      code: 'LOT_NOT_RELISTABLE',
      details: { orderStatus: 'overdue' },
    })
    expect((await cataloguer('POST', `/orders/${won.orderId}/forfeit`)).statusCode).toBe(403)
    const forfeited = await cashier('POST', `/orders/${won.orderId}/forfeit`)
    expect(forfeited.statusCode, forfeited.body).toBe(200)
    expect(await listed(cataloguer)).toMatchObject({ status: 'cancelled', deposit: 0 })

    expect(
      (await cashier('POST', `/sales/lots/${won.lotId}/relist`, { specialId: target })).statusCode,
    ).toBe(403)
    const relisted = await cataloguer('POST', `/sales/lots/${won.lotId}/relist`, {
      specialId: target,
    })
    expect(relisted.statusCode, relisted.body).toBe(200)
    expect(relisted.json().data).toMatchObject({ startPrice: 600 * YUAN, reservePrice: null })
    // Relisted: no longer waiting in the list.
    expect(await listed(cataloguer)).toBeUndefined()
  })
})
