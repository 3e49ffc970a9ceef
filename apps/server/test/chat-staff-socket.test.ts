import type { ChatMessage } from '@numisma/contracts/chat'
import type { StaffRole } from '@numisma/contracts/staff'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()

/** How often the short-interval app re-checks its staff sockets' sessions. */
const RECHECK_MS = 60

let counter = 0
// At least 8 characters whatever the pid (a chat clientId is 8 to 64): with a short pid, c-<pid>-<n>
// came to 7 and CI failed five tests on VALIDATION_FAILED.
const nextId = (prefix: string) => `${prefix}-${process.pid}-${String(counter++).padStart(4, '0')}`

type Frame = Record<string, unknown>

/** A staff member with only `roles`, signed in: their id and session cookie. */
async function supportMember(t: TestApp, roles: StaffRole[] = ['support']) {
  const password = 'staff-test-password'
  const service = StaffService.forDatabase(t.database, t.clock)
  await service.bootstrap(password)
  const username = nextId('desk')
  const member = await service.create({ username, password, roles })
  const login = await t.inject({
    method: 'POST',
    url: '/svc/main/admin/login',
    payload: { username, password },
  })
  const cookie = login.cookies.find((c) => c.name === 'staff_sid')?.value
  if (!cookie) throw new Error(`staff login failed: ${login.body}`)
  return { id: member.id, cookie }
}

/** Opens the staff desk socket, recording its frames and how it closed. */
async function deskSocket(t: TestApp, cookie: string) {
  const frames: Frame[] = []
  let closed!: Promise<{ code: number; reason: string }>
  const socket = await t.app.injectWS(
    '/svc/main/admin/chat/ws',
    { headers: { cookie: `staff_sid=${cookie}` } },
    {
      onInit: (ws) => {
        ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Frame))
        closed = new Promise((resolve) =>
          ws.on('close', (code: number, reason: Buffer) =>
            resolve({ code, reason: reason.toString() }),
          ),
        )
      },
    },
  )
  await waitFor(() => frames.some((f) => f.type === 'hello'))
  return { socket, frames, closed }
}

async function waitFor(done: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await sleep(10)
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Resolves with the close, or null if the socket is still open after `ms`. */
const closedWithin = <T>(closed: Promise<T>, ms: number) =>
  Promise.race([closed, sleep(ms).then(() => null)])

/**
 * The staff desk socket serves a staff member only while their session lives and admits the
 * support role (security review: a disabled or signed-out member kept the open socket).
 */
describe.each(databases)('staff chat socket after the session ends ($name)', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    // Frames are checked one by one; the sweep stays far away so it cannot close first.
    t = await createTestApp(kind, { chat: { socketLimits: { staffRecheckMs: 10 * 60_000 } } })
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())

  const collectorSays = async (as: Session, text: string) => {
    const res = await t.call({
      method: 'POST',
      path: '/chat/messages',
      as,
      body: { kind: 'text', clientId: nextId('c'), text },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: ChatMessage }>().data
  }
  const agentSays = (conversationId: number, text: string) =>
    JSON.stringify({
      type: 'send',
      conversationId,
      message: { kind: 'text', clientId: nextId('a'), text },
    })
  const historyOf = async (as: Session) =>
    (await t.call({ method: 'GET', path: '/chat/messages', as })).json<{ data: ChatMessage[] }>()
      .data

  it('answers as the agent while the session lives', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    const alice = await t.signIn()
    const asked = await collectorSays(alice, '在吗')
    await waitFor(() => desk.frames.some((f) => f.type === 'message'))
    desk.socket.send(agentSays(asked.conversationId, '在的'))
    await waitFor(() => desk.frames.filter((f) => f.type === 'message').length === 2)
    expect((await historyOf(alice)).map((m) => m.text)).toEqual(['在的', '在吗'])
    desk.socket.terminate()
  })

  it('refuses a frame once the member is disabled, closing with 1008 UNAUTHENTICATED', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    const alice = await t.signIn()
    const asked = await collectorSays(alice, '请问')

    const disabled = await admin('POST', `/staff-members/${member.id}`, { disabled: true })
    expect(disabled.statusCode, disabled.body).toBe(200)
    desk.socket.send(agentSays(asked.conversationId, '禁用后的回答'))

    expect(await closedWithin(desk.closed, 2000)).toEqual({
      code: 1008,
      reason: 'UNAUTHENTICATED',
    })
    await sleep(50)
    expect((await historyOf(alice)).map((m) => m.text)).toEqual(['请问'])
  })

  it('refuses a frame after the member signs out', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    const alice = await t.signIn()
    const asked = await collectorSays(alice, '你好')

    const out = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/logout',
      cookies: { staff_sid: member.cookie },
    })
    expect(out.statusCode, out.body).toBe(200)
    desk.socket.send(agentSays(asked.conversationId, '登出后的回答'))

    expect(await closedWithin(desk.closed, 2000)).toEqual({
      code: 1008,
      reason: 'UNAUTHENTICATED',
    })
    await sleep(50)
    expect((await historyOf(alice)).map((m) => m.text)).toEqual(['你好'])
  })

  it('refuses a frame once the support role is taken away, closing with 1008 FORBIDDEN', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    const alice = await t.signIn()
    const asked = await collectorSays(alice, '请问')

    const changed = await admin('POST', `/staff-members/${member.id}`, { roles: ['cashier'] })
    expect(changed.statusCode, changed.body).toBe(200)
    desk.socket.send(agentSays(asked.conversationId, '无权的回答'))

    expect(await closedWithin(desk.closed, 2000)).toEqual({ code: 1008, reason: 'FORBIDDEN' })
    await sleep(50)
    expect((await historyOf(alice)).map((m) => m.text)).toEqual(['请问'])
  })
})

describe.each(databases)('staff chat socket re-checked while quiet ($name)', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind, { chat: { socketLimits: { staffRecheckMs: RECHECK_MS } } })
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())

  const collectorSays = async (text: string) => {
    const res = await t.call({
      method: 'POST',
      path: '/chat/messages',
      as: await t.signIn(),
      body: { kind: 'text', clientId: nextId('c'), text },
    })
    expect(res.statusCode, res.body).toBe(200)
  }
  const messagesTo = (frames: Frame[]) =>
    frames.filter((f) => f.type === 'message').map((f) => (f.message as ChatMessage).text)

  it('keeps a live member’s socket open across re-checks', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    expect(await closedWithin(desk.closed, RECHECK_MS * 5)).toBeNull()
    await collectorSays('还在线吗')
    await waitFor(() => messagesTo(desk.frames).includes('还在线吗'))
    desk.socket.terminate()
  })

  it('closes a disabled member’s socket and delivers them nothing more', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    const disabled = await admin('POST', `/staff-members/${member.id}`, { disabled: true })
    expect(disabled.statusCode, disabled.body).toBe(200)

    expect(await closedWithin(desk.closed, RECHECK_MS * 10)).toEqual({
      code: 1008,
      reason: 'UNAUTHENTICATED',
    })
    await collectorSays('禁用之后的新消息')
    await sleep(RECHECK_MS)
    expect(messagesTo(desk.frames)).not.toContain('禁用之后的新消息')
  })

  it('closes a signed-out member’s socket and delivers them nothing more', async () => {
    const member = await supportMember(t)
    const desk = await deskSocket(t, member.cookie)
    const out = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/logout',
      cookies: { staff_sid: member.cookie },
    })
    expect(out.statusCode, out.body).toBe(200)

    expect(await closedWithin(desk.closed, RECHECK_MS * 10)).toEqual({
      code: 1008,
      reason: 'UNAUTHENTICATED',
    })
    await collectorSays('登出之后的新消息')
    await sleep(RECHECK_MS)
    expect(messagesTo(desk.frames)).not.toContain('登出之后的新消息')
  })

  it('closes the socket of a member who lost the support role with FORBIDDEN', async () => {
    const member = await supportMember(t, ['support', 'cashier'])
    const desk = await deskSocket(t, member.cookie)
    const changed = await admin('POST', `/staff-members/${member.id}`, { roles: ['cashier'] })
    expect(changed.statusCode, changed.body).toBe(200)

    expect(await closedWithin(desk.closed, RECHECK_MS * 10)).toEqual({
      code: 1008,
      reason: 'FORBIDDEN',
    })
  })
})
