import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REMINDER_LEAD_MS, ReminderJob } from '../src/modules/bidding/reminders'
import type { PushEvent, RedisEventBus } from '../src/platform/event-bus'
import { randomToken } from '../src/platform/crypto'
import { createTestApp, nextMobile, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { busDelivered, listen, openPush } from './helpers/push-client'
import { startTwoInstances, type TwoInstances } from './helpers/instances'
import { redisAvailable } from './helpers/redis'

const MINUTE = 60_000
const databases = await testDatabases()
const postgres = databases.find((d) => d.name === 'postgres')
const redis = await redisAvailable()

/** Ending-soon reminders (DESIGN §4, issue 7 "Beyond the anchors"). */
describe.each(databases)('ending-soon reminders ($name)', (kind) => {
  let t: TestApp
  let reminders: PushEvent[]
  let stopListening: () => void

  beforeAll(async () => {
    t = await createTestApp(kind)
    reminders = []
    stopListening = t.app.bus.subscribe((event) => {
      if (event.type === 'reminder') reminders.push(event)
    })
  })
  afterAll(async () => {
    stopListening()
    await t.close()
  })

  /** The job, whose run returns once the reminders it published have been delivered. */
  const job = () => {
    const reminderJob = ReminderJob.forDatabase(t.database, t.clock, t.app.bus)
    return {
      run: async () => {
        const sent = await reminderJob.run()
        await busDelivered()
        return sent
      },
    }
  }

  /** A user straight in the table (test data builder); sessions are not needed here. */
  async function createUser(): Promise<number> {
    const mobile = nextMobile()
    const row = await t.database.db
      .insertInto('users')
      .values({
        mobile,
        display: `藏友${mobile.slice(-4)}`,
        avatar: null,
        created_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  async function watch(userId: number, lotId: number): Promise<void> {
    await t.database.db
      .insertInto('watches')
      .values({ user_id: userId, lot_id: lotId, created_at: t.clock.now() })
      .execute()
  }

  const remindersOf = (lotId: number) =>
    reminders.filter((r) => r.type === 'reminder' && r.lotId === lotId)

  it('reminds a watcher once, five minutes before the end, and not before', async () => {
    const endsAt = t.clock.now() + 20 * MINUTE
    const lotId = await createLot(t, { endsAt })
    const watcher = await createUser()
    const bystander = await createUser()
    await watch(watcher, lotId)
    expect(bystander).not.toBe(watcher)

    t.clock.set(endsAt - REMINDER_LEAD_MS - 1)
    expect(await job().run()).toEqual([])

    t.clock.set(endsAt - REMINDER_LEAD_MS)
    expect(await job().run()).toEqual([
      { userId: watcher, lotId, title: '民国三年袁世凯像壹圆', endsAt },
    ])
    expect(remindersOf(lotId)).toEqual([
      {
        type: 'reminder',
        userId: watcher,
        lotId,
        title: '民国三年袁世凯像壹圆',
        endsAt: new Date(endsAt).toISOString(),
      },
    ])

    t.clock.advance(MINUTE)
    expect(await job().run()).toEqual([])
    expect(remindersOf(lotId)).toHaveLength(1)
  })

  it('does not remind again when a soft close extends the lot (once means once)', async () => {
    const endsAt = t.clock.now() + 10 * MINUTE
    const lotId = await createLot(t, { endsAt })
    const watcher = await createUser()
    await watch(watcher, lotId)
    t.clock.set(endsAt - MINUTE)
    expect(await job().run()).toHaveLength(1)

    // A bid in the last minute moved the end five minutes on; the lot is again five minutes out.
    const extended = t.clock.now() + REMINDER_LEAD_MS
    await t.database.db
      .updateTable('lots')
      .set({ ends_at: extended })
      .where('id', '=', lotId)
      .execute()
    expect(await job().run()).toEqual([])
    t.clock.set(extended - MINUTE)
    expect(await job().run()).toEqual([])
    expect(remindersOf(lotId)).toHaveLength(1)
  })

  it('does not remind again after unwatching and watching again in the last five minutes', async () => {
    const endsAt = t.clock.now() + 10 * MINUTE
    const lotId = await createLot(t, { endsAt })
    const watcher = await t.signIn()
    const attention = (method: 'POST' | 'DELETE') =>
      t.call({ method, path: `/auction/${lotId}/@attention`, as: watcher })
    expect((await attention('POST')).statusCode).toBe(200)
    t.clock.set(endsAt - 4 * MINUTE)
    expect(await job().run()).toHaveLength(1)

    expect((await attention('DELETE')).statusCode).toBe(200)
    expect((await attention('POST')).statusCode).toBe(200)
    t.clock.advance(MINUTE)
    expect(await job().run()).toEqual([])
    expect(remindersOf(lotId)).toHaveLength(1)
  })

  it('reminds nobody of an unwatched lot, nor of a lot that has ended or closed', async () => {
    const base = t.clock.now()
    const unwatched = await createLot(t, { endsAt: base + 2 * MINUTE })
    const ended = await createLot(t, { endsAt: base - 1 })
    const closed = await createLot(t, { endsAt: base + 2 * MINUTE })
    await t.database.db
      .updateTable('lots')
      .set({ status: 'unsold' })
      .where('id', '=', closed)
      .execute()
    const watcher = await createUser()
    await watch(watcher, ended)
    await watch(watcher, closed)

    expect(await job().run()).toEqual([])
    expect([...remindersOf(unwatched), ...remindersOf(ended), ...remindersOf(closed)]).toEqual([])
  })

  it('sends each reminder once when two jobs (two instances) run at the same time', async () => {
    const endsAt = t.clock.now() + 30 * MINUTE
    const lots = [
      await createLot(t, { endsAt }),
      await createLot(t, { endsAt }),
      await createLot(t, { endsAt }),
    ]
    const users: number[] = []
    for (let i = 0; i < 40; i++) users.push(await createUser())
    for (const userId of users) for (const lotId of lots) await watch(userId, lotId)

    t.clock.set(endsAt - REMINDER_LEAD_MS + 1)
    const instances = [job(), job()]
    const runs = await Promise.all([...instances, ...instances].map((j) => j.run()))
    const claimed = runs.flat().map((r) => `${r.userId}:${r.lotId}`)
    expect(claimed).toHaveLength(users.length * lots.length)
    expect(new Set(claimed).size).toBe(users.length * lots.length)
    expect(lots.flatMap(remindersOf)).toHaveLength(users.length * lots.length)
  })

  it("delivers the reminder over the watcher's WebSocket, and to nobody else's", async () => {
    const base = await listen(t.app)
    const endsAt = t.clock.now() + 15 * MINUTE
    const lotId = await createLot(t, { endsAt })
    const alice = await t.signIn()
    const bob = await t.signIn()
    const watched = await t.call({
      method: 'POST',
      path: `/auction/${lotId}/@attention`,
      as: alice,
    })
    expect(watched.statusCode).toBe(200)

    const aliceSocket = await openPush(base, { headers: { cookie: `sid=${alice.sid}` } })
    const bobSocket = await openPush(base, { headers: { cookie: `sid=${bob.sid}` } })
    const anonymous = await openPush(base)
    for (const push of [aliceSocket, bobSocket, anonymous]) {
      await push.waitFor((m) => m.type === 'hello')
      // Following the lot's updates does not make a socket a watcher.
      push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
      await push.waitFor((m) => m.type === 'lot' && m.lotId === lotId)
    }

    t.clock.set(endsAt - REMINDER_LEAD_MS)
    await job().run()
    expect(await aliceSocket.waitFor((m) => m.type === 'reminder' && m.lotId === lotId)).toEqual({
      type: 'reminder',
      lotId,
      title: '民国三年袁世凯像壹圆',
      endsAt: new Date(endsAt).toISOString(),
    })
    await new Promise((r) => setTimeout(r, 50))
    for (const push of [bobSocket, anonymous]) {
      expect(push.messages.filter((m) => m.type === 'reminder')).toEqual([])
    }
    for (const push of [aliceSocket, bobSocket, anonymous]) push.socket.terminate()
  })
})

/**
 * Production mode: two instances on one PostgreSQL, pushes through Redis. Both run the job at the
 * same moment; the watcher, connected to the second instance, hears the reminder once.
 */
describe.runIf(postgres && redis)('ending-soon reminders across two instances', () => {
  let instances: TwoInstances
  let a: TestApp
  let b: TwoInstances['b']
  let busA: RedisEventBus
  let busB: RedisEventBus

  beforeAll(async () => {
    instances = await startTwoInstances(postgres!)
    ;({ a, b, busA, busB } = instances)
  })
  afterAll(() => instances.close())

  it('sends the reminder once, to the socket on the other instance', async () => {
    const endsAt = a.clock.now() + 30 * MINUTE
    const lotId = await createLot(a, { endsAt })
    // Other test runs may share this Redis channel: a title of our own tells our reminder apart.
    const title = `提醒 ${randomToken(8)}`
    await a.database.db.updateTable('lots').set({ title }).where('id', '=', lotId).execute()
    const alice = await a.signIn()
    const watched = await a.call({
      method: 'POST',
      path: `/auction/${lotId}/@attention`,
      as: alice,
    })
    expect(watched.statusCode).toBe(200)
    const push = await openPush(await listen(b), { headers: { cookie: `sid=${alice.sid}` } })
    await push.waitFor((m) => m.type === 'hello' && m.userId === Number(alice.userId))

    a.clock.set(endsAt - REMINDER_LEAD_MS)
    const jobs = [
      ReminderJob.forDatabase(a.database, a.clock, busA),
      ReminderJob.forDatabase(a.database, a.clock, busB),
    ]
    const runs = await Promise.all(jobs.map((job) => job.run()))
    expect(runs.flat()).toHaveLength(1)

    await push.waitFor((m) => m.type === 'reminder' && m.title === title)
    await new Promise((r) => setTimeout(r, 200))
    expect(push.messages.filter((m) => m.type === 'reminder' && m.title === title)).toEqual([
      { type: 'reminder', lotId, title, endsAt: new Date(endsAt).toISOString() },
    ])
    push.socket.terminate()
  })
})
