import type { Notice } from '@numisma/contracts/notices'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClosingSweeper } from '../src/modules/bidding/closing'
import { REMINDER_LEAD_MS, ReminderJob } from '../src/modules/bidding/reminders'
import {
  NOTICES_KEPT_PER_USER,
  NOTICES_TRIM_EVERY,
  noticeWriterFor,
} from '../src/modules/notices/writer'
import { transactor } from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot, creditDeposit } from './helpers/auction'
import { testDatabases } from './helpers/databases'

const YUAN = 100
const MINUTE = 60_000
const databases = await testDatabases()

/** The notices inbox (issue 9, DESIGN §4): what bidding events leave there, and only for whom. */
describe.each(databases)('notices ($name)', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(async () => {
    await t.close()
  })

  /** A signed-in bidder with room to bid. */
  async function bidder(): Promise<Session> {
    const session = await t.signIn()
    await creditDeposit(t, session.userId, 100_000 * YUAN)
    return session
  }
  const bid = (as: Session, lotId: number, amount: number) =>
    t.call({ method: 'POST', path: '/bidding/bid', as, body: { lotId, amount, proxy: false } })
  const inbox = async (as: Session, query = '') => {
    const response = await t.call({ method: 'GET', path: `/user/notices${query}`, as })
    expect(response.statusCode).toBe(200)
    return response.json<{ data: Notice[]; page: number; pageSize: number; total: number }>()
  }
  const markRead = (as: Session, body?: unknown) =>
    t.call({ method: 'POST', path: '/user/notices/read', as, body })
  const unreadOnStatistics = async (as: Session) =>
    (await t.call({ method: 'GET', path: '/user/@statistics', as })).json<{
      data: { counts: { unreadNotices?: number } }
    }>().data.counts.unreadNotices

  /** Writes `count` notices for a user straight through the writer, each a millisecond apart. */
  async function writeNotices(userId: string, count: number, lotId = 1): Promise<void> {
    const writer = noticeWriterFor(t.database, t.clock)
    const transact = transactor(t.database)
    for (let i = 0; i < count; i++) {
      t.clock.advance(1)
      await transact((tx) =>
        writer.add(tx, Number(userId), 'outbid', { lotId, title: `拍品 ${i}`, price: i }, null),
      )
    }
  }

  it('tells the bidder who lost the lead, and nobody else, in the bid', async () => {
    const [alice, bob] = [await bidder(), await bidder()]
    const lotId = await createLot(t)
    expect((await bid(alice, lotId, 1_000 * YUAN)).statusCode).toBe(200)
    expect((await inbox(alice)).data).toEqual([])
    expect((await bid(bob, lotId, 2_000 * YUAN)).statusCode).toBe(200)

    const { data, total } = await inbox(alice)
    expect(total).toBe(1)
    expect(data[0]).toEqual({
      id: expect.any(Number),
      kind: 'outbid',
      params: { lotId, title: '民国三年袁世凯像壹圆', price: 2_000 * YUAN },
      link: `/productDetail?id=${lotId}`,
      createdAt: new Date(t.clock.now()).toISOString(),
      read: false,
    })
    expect((await inbox(bob)).total).toBe(0)
    expect(await unreadOnStatistics(alice)).toBe(1)
    expect(await unreadOnStatistics(bob)).toBe(0)
  })

  it('writes nothing for a bid that is refused (the notice commits with the bid or not at all)', async () => {
    const [alice, bob] = [await bidder(), await bidder()]
    const lotId = await createLot(t)
    await bid(alice, lotId, 1_000 * YUAN)
    const refused = await bid(bob, lotId, 1_000 * YUAN)
    expect(refused.json().code).toBe('BID_TOO_LOW')
    expect((await inbox(alice)).total).toBe(0)
  })

  it("lands an ending-soon reminder in the watcher's notices, once", async () => {
    const watcher = await t.signIn()
    const endsAt = t.clock.now() + 20 * MINUTE
    const lotId = await createLot(t, { endsAt })
    await t.call({ method: 'POST', path: `/auction/${lotId}/@attention`, as: watcher })
    const saved = t.clock.now()
    try {
      t.clock.set(endsAt - REMINDER_LEAD_MS)
      const job = ReminderJob.forDatabase(t.database, t.clock, t.app.bus)
      expect(await job.run()).toHaveLength(1)
      expect(await job.run()).toEqual([])
      const { data } = await inbox(watcher)
      expect(data).toMatchObject([
        {
          kind: 'ending_soon',
          params: { lotId, title: '民国三年袁世凯像壹圆', endsAt: new Date(endsAt).toISOString() },
          link: `/productDetail?id=${lotId}`,
          read: false,
        },
      ])
    } finally {
      t.clock.set(saved)
    }
  })

  it('tells the winner at the close, with the order to pay', async () => {
    const [alice, bob] = [await bidder(), await bidder()]
    const lotId = await createLot(t, { endsAt: t.clock.now() + 10 * MINUTE })
    await bid(alice, lotId, 1_000 * YUAN)
    await bid(bob, lotId, 2_000 * YUAN)
    const saved = t.clock.now()
    try {
      t.clock.advance(10 * MINUTE)
      const sweeper = ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus)
      await sweeper.sweep()
      await sweeper.sweep()
      const order = await t.database.db
        .selectFrom('orders')
        .select(['id', 'due_at'])
        .where('lot_id', '=', lotId)
        .executeTakeFirstOrThrow()
      const won = (await inbox(bob)).data.filter((n) => n.kind === 'lot_won')
      expect(won).toEqual([
        expect.objectContaining({
          params: {
            lotId,
            title: '民国三年袁世凯像壹圆',
            price: 2_000 * YUAN,
            orderId: order.id,
            dueAt: new Date(order.due_at ?? 0).toISOString(),
          },
          link: `/account/pay?orderIds=${order.id}`,
        }),
      ])
      expect((await inbox(alice)).data.map((n) => n.kind)).toEqual(['outbid'])
    } finally {
      t.clock.set(saved)
    }
  })

  it('pages newest first, and keeps only the newest per user', async () => {
    const reader = await t.signIn()
    await writeNotices(reader.userId, 25)
    const first = await inbox(reader, '?page=1&pageSize=10')
    expect(first).toMatchObject({ page: 1, pageSize: 10, total: 25 })
    expect(first.data.map((n) => n.params.title)).toEqual(
      Array.from({ length: 10 }, (_, i) => `拍品 ${24 - i}`),
    )
    const last = await inbox(reader, '?page=3&pageSize=10')
    expect(last.data.map((n) => n.params.title)).toEqual(
      Array.from({ length: 5 }, (_, i) => `拍品 ${4 - i}`),
    )
    expect((await inbox(reader, '?page=4&pageSize=10')).data).toEqual([])

    // The trim falls on one notice in NOTICES_TRIM_EVERY: the newest kept, and what came since.
    await writeNotices(reader.userId, NOTICES_KEPT_PER_USER + 2 * NOTICES_TRIM_EVERY)
    const kept = await inbox(reader, '?pageSize=50')
    expect(kept.total).toBeGreaterThanOrEqual(NOTICES_KEPT_PER_USER)
    expect(kept.total).toBeLessThan(NOTICES_KEPT_PER_USER + NOTICES_TRIM_EVERY)
    expect(kept.data[0]?.params.title).toBe(
      `拍品 ${NOTICES_KEPT_PER_USER + 2 * NOTICES_TRIM_EVERY - 1}`,
    )
  })

  it("marks the caller's notices read, and never another user's", async () => {
    const [reader, other] = [await t.signIn(), await t.signIn()]
    await writeNotices(reader.userId, 3)
    await writeNotices(other.userId, 2)
    const mine = (await inbox(reader)).data.map((n) => n.id)
    const theirs = (await inbox(other)).data.map((n) => n.id)

    const some = await markRead(reader, { ids: [mine[0], ...theirs] })
    expect(some.statusCode).toBe(200)
    expect(some.json()).toEqual({ data: { unread: 2 } })
    expect((await inbox(reader)).data.map((n) => n.read)).toEqual([true, false, false])
    expect((await inbox(other)).data.map((n) => n.read)).toEqual([false, false])
    expect(await unreadOnStatistics(reader)).toBe(2)

    // Another user's ids alone: the same answer as ids already read, and nothing changes.
    expect((await markRead(other, { ids: [mine[1]] })).json()).toEqual({ data: { unread: 2 } })
    expect((await inbox(reader)).data.map((n) => n.read)).toEqual([true, false, false])

    expect((await markRead(reader)).json()).toEqual({ data: { unread: 0 } })
    expect(await unreadOnStatistics(reader)).toBe(0)
    expect(await unreadOnStatistics(other)).toBe(2)
  })

  it('refuses bad input with a coded 400, and strangers with 401', async () => {
    const reader = await t.signIn()
    const empty = await markRead(reader, { ids: [] })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().code).toBe('VALIDATION_FAILED')
    expect((await markRead(reader, { ids: [0] })).statusCode).toBe(400)
    expect((await markRead(reader, { ids: ['x'] })).statusCode).toBe(400)
    const big = await t.call({ method: 'GET', path: '/user/notices?pageSize=51', as: reader })
    expect(big.statusCode).toBe(400)
    expect((await t.call({ method: 'GET', path: '/user/notices' })).statusCode).toBe(401)
    expect(
      (await t.call({ method: 'POST', path: '/user/notices/read', body: {} })).statusCode,
    ).toBe(401)
  })
})
