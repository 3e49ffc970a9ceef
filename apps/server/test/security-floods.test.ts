import type { ChatMessage } from '@numisma/contracts/chat'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CHAT_SOCKET_LIMITS } from '../src/modules/chat/hub'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { BUDGET_MS, FREEZE_MS, measureFlood } from './helpers/flood'
import { staffCaller } from './helpers/mall-orders'
import { listen } from './helpers/push-client'

/**
 * Issue 15 (deliverable 4): floods of socket frames. The push socket's flood is push-flood.test.ts's
 * and the collector's chat socket's chat.test.ts's; this is the staff desk's
 * (`/svc/main/admin/chat/ws`), measured the same way (helpers/flood.ts): a signed-in staff session
 * whose script floods the desk with answers must not take the server down, and is cut off.
 */
const SOCKETS = 4
const FRAMES = 150
/** As push-flood.test.ts: the CPU the whole flood may cost this process (the server). */
const FLOOD_CPU_BUDGET_MS = 1500
const limits = DEFAULT_CHAT_SOCKET_LIMITS

describe.each(await testDatabases())('staff chat socket flood ($name)', (kind) => {
  let t: TestApp
  let base: string
  let staffSid: string
  let conversationId: number

  beforeAll(async () => {
    t = await createTestApp(kind)
    await staffCaller(t)
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password: 'staff-test-password' },
    })
    staffSid = login.cookies.find((c) => c.name === 'staff_sid')!.value
    const collector = await t.signIn()
    const asked = await t.call({
      method: 'POST',
      path: '/chat/messages',
      as: collector,
      body: { kind: 'text', clientId: 'flood-question', text: '请问这枚币还在吗' },
    })
    expect(asked.statusCode, asked.body).toBe(200)
    conversationId = asked.json<{ data: ChatMessage }>().data.conversationId
    base = await listen(t.app)
  })
  afterAll(() => t.close())

  /*
   * Every frame is an answer with a fresh client id (the costly kind: a row written and sent to
   * every staff socket), four sockets at once. The fake clock stands still, so no bucket refills:
   * each socket gets at most its burst through, is told RATE_LIMITED until its refusals run out,
   * and is closed with 1008 — the rest of its frames cost nothing.
   */
  it(`keeps the event loop and /svc/health under ${BUDGET_MS} ms, stores at most one burst per socket and closes the flooders`, async () => {
    const payloads = Array.from({ length: FRAMES }, (_, n) =>
      JSON.stringify({
        type: 'send',
        conversationId,
        message: { kind: 'text', clientId: `flood-{socket}-${n}`, text: `刷屏 ${n}` },
      }),
    )
    const { seen, p99, longest, healthMedian, floodCpuMs, summary } = await measureFlood(base, {
      url: `${base.replace(/^http/, 'ws')}/svc/main/admin/chat/ws`,
      sockets: SOCKETS,
      messages: FRAMES,
      payloads,
      headers: { cookie: `staff_sid=${staffSid}` },
    })
    expect(p99, summary).toBeLessThan(BUDGET_MS)
    expect(longest, summary).toBeLessThan(FREEZE_MS)
    expect(healthMedian, summary).toBeLessThan(BUDGET_MS)
    expect(floodCpuMs, summary).toBeLessThan(FLOOD_CPU_BUDGET_MS)

    expect(seen.map((s) => s.closeCode)).toEqual(Array(SOCKETS).fill(1008))
    for (const socket of seen) {
      expect(socket.rateLimited).toBe(limits.refusalsBeforeClose - 1)
      expect(socket.errors).toBe(0)
      // It heard at most the answers that were stored (each is sent to every staff socket).
      expect(socket.messages).toBeLessThanOrEqual(SOCKETS * limits.frameBurst)
    }
    const stored = await t.database.db
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_id', '=', conversationId)
      .where('sender', '=', 'agent')
      .executeTakeFirstOrThrow()
    // A frame let through waits for the staff session check; the socket may be closed meanwhile,
    // and then it is dropped: at most one burst per socket is stored.
    expect(Number(stored.n)).toBeLessThanOrEqual(SOCKETS * limits.frameBurst)
  })
})
