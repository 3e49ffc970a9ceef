import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { listen, openPush } from './helpers/push-client'

/**
 * Issue 7, defect 2: one failed database read in the push role ended the process (a snapshot's
 * rejection was discarded with `void`). The read is made to fail for real, by taking the lots
 * table away under the running server.
 */
describe.each(await testDatabases())('push role when a read fails ($name)', (kind) => {
  let t: TestApp
  let base: string
  const unhandled: unknown[] = []
  const record = (reason: unknown) => unhandled.push(reason)

  beforeAll(async () => {
    t = await createTestApp(kind)
    base = await listen(t.app)
    process.on('unhandledRejection', record)
  })
  afterAll(async () => {
    process.off('unhandledRejection', record)
    await t.close()
  })

  it('answers the socket with INTERNAL_ERROR, rejects nothing, and the server keeps serving', async () => {
    const lotId = await createLot(t)
    const push = await openPush(base)
    await push.waitFor((m) => m.type === 'hello')

    await sql`alter table lots rename to lots_away`.execute(t.database.db)
    try {
      push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
      // Give the failed read, and any rejection it leaves, the turns they need to surface.
      await new Promise((r) => setTimeout(r, 200))
      expect(unhandled).toEqual([])
      const health = await fetch(`${base}/svc/health`)
      expect(health.status).toBe(200)
      // The client is told its catch-up failed, and its socket stays open.
      await push.waitFor((m) => m.type === 'error' && m.code === 'INTERNAL_ERROR')
      expect(push.socket.readyState).toBe(push.socket.OPEN)
    } finally {
      await sql`alter table lots_away rename to lots`.execute(t.database.db)
    }

    // Once the database answers again, the same socket catches up on a new subscribe.
    push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [] }))
    push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
    await push.waitFor((m) => m.type === 'lot' && m.lotId === lotId)
    push.socket.terminate()
  })
})
