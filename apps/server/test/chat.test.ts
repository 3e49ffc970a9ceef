import type { ChatConversation, ChatMessage, StaffConversationPage } from '@numisma/contracts/chat'
import type { LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { SandboxSmsSender } from '../src/modules/passport/sms-sender'
import type { Database } from '../src/platform/db'
import { InProcessEventBus } from '../src/platform/event-bus'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { startTwoInstances, type TwoInstances } from './helpers/instances'
import { createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { redisAvailable } from './helpers/redis'

const databases = await testDatabases()
const MINUTE = 60_000

let clientCounter = 0
const clientId = () => `client-${process.pid}-${clientCounter++}`

const pngDataUrl = async (width: number, height: number) =>
  `data:image/png;base64,${(
    await sharp({
      create: { width, height, channels: 3, background: { r: 200, g: 160, b: 40 } },
    })
      .png()
      .toBuffer()
  ).toString('base64')}`

/** The customer-service chat over HTTP (issue 11, DESIGN §7, ADR 018). */
describe.each(databases)('customer-service chat ($name)', (kind) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())

  const send = (as: Session, body: unknown) =>
    t.call({ method: 'POST', path: '/chat/messages', as, body })
  const sendText = async (as: Session, text: string, id = clientId()) => {
    const res = await send(as, { kind: 'text', clientId: id, text })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: ChatMessage }>().data
  }
  const history = async (as: Session, query = '') => {
    const res = await t.call({ method: 'GET', path: `/chat/messages${query}`, as })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: ChatMessage[] }>().data
  }
  const conversation = async (as: Session) =>
    (await t.call({ method: 'GET', path: '/chat/conversation', as })).json<{
      data: ChatConversation
    }>().data
  const staffPage = async (query = '') => {
    const res = await admin('GET', `/chat/conversations${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: StaffConversationPage }>().data
  }
  const staffList = async () => (await staffPage()).conversations
  const reply = (conversationId: number, body: unknown) =>
    admin('POST', `/chat/conversations/${conversationId}/messages`, body as object)
  const unreadChat = async (as: Session) =>
    (await t.call({ method: 'GET', path: '/user/@statistics', as })).json<{
      data: { counts: { unreadChat?: number } }
    }>().data.counts.unreadChat
  const codeOf = (res: LightMyRequestResponse) => res.json<{ code: string }>().code

  it('opens the conversation on the first message and keeps history newest first, in pages', async () => {
    const alice = await t.signIn()
    expect(await conversation(alice)).toEqual({ id: null, peerId: 'numisma-service', unread: 0 })
    expect(await history(alice)).toEqual([])

    const first = await sendText(alice, '你好，请问这枚银元还在吗？')
    expect(first).toEqual({
      id: expect.any(Number),
      conversationId: expect.any(Number),
      from: 'user',
      kind: 'text',
      text: '你好，请问这枚银元还在吗？',
      clientId: expect.any(String),
      createdAt: new Date(t.clock.now()).toISOString(),
    })
    for (let i = 2; i <= 5; i++) await sendText(alice, `消息 ${i}`)
    const all = await history(alice)
    expect(all.map((m) => m.text)).toEqual(['消息 5', '消息 4', '消息 3', '消息 2', first.text])
    const page1 = await history(alice, '?limit=2')
    expect(page1.map((m) => m.text)).toEqual(['消息 5', '消息 4'])
    const page2 = await history(alice, `?limit=2&before=${page1[1]!.id}`)
    expect(page2.map((m) => m.text)).toEqual(['消息 3', '消息 2'])
    expect((await conversation(alice)).id).toBe(first.conversationId)
  })

  it('counts unread both ways and clears them with read marks; staff see the list', async () => {
    const alice = await t.signIn()
    await sendText(alice, '在吗')
    t.clock.advance(1000)
    const last = await sendText(alice, '想问一下运费')
    const mine = (await staffList()).find((c) => c.userId === Number(alice.userId))!
    expect(mine).toMatchObject({
      id: last.conversationId,
      display: expect.any(String),
      mobile: alice.mobile,
      unread: 2,
      lastMessage: { id: last.id, text: '想问一下运费' },
    })
    // Newest activity first.
    expect((await staffList())[0]!.id).toBe(last.conversationId)

    t.clock.advance(1000)
    const answer = await reply(last.conversationId, {
      kind: 'text',
      clientId: clientId(),
      text: '在的，您好',
    })
    expect(answer.statusCode, answer.body).toBe(200)
    expect(answer.json<{ data: ChatMessage }>().data).toMatchObject({
      from: 'agent',
      text: '在的，您好',
    })
    expect((await conversation(alice)).unread).toBe(1)
    expect(await unreadChat(alice)).toBe(1)

    const read = await t.call({ method: 'POST', path: '/chat/read', as: alice })
    expect(read.statusCode, read.body).toBe(200)
    expect(read.json<{ data: { upTo: number } }>().data.upTo).toBe(
      answer.json<{ data: ChatMessage }>().data.id,
    )
    expect((await conversation(alice)).unread).toBe(0)
    expect(await unreadChat(alice)).toBe(0)

    const staffRead = await admin('POST', `/chat/conversations/${last.conversationId}/read`)
    expect(staffRead.statusCode, staffRead.body).toBe(200)
    expect((await staffList()).find((c) => c.id === last.conversationId)!.unread).toBe(0)
  })

  it('pages staff through every conversation by a cursor, and counts the unread ones in all', async () => {
    const before = await staffPage()
    const opened: number[] = []
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000)
      opened.push((await sendText(await t.signIn(), `第 ${i} 位`)).conversationId)
    }
    // Two conversations with the same last activity must not be skipped at a page's edge.
    const twins = await Promise.all([t.signIn(), t.signIn()])
    t.clock.advance(1000)
    for (const twin of twins) opened.push((await sendText(twin, '同一毫秒')).conversationId)

    const seen: number[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `?limit=2${cursor === null ? '' : `&before=${encodeURIComponent(cursor)}`}`
      const page = await staffPage(query)
      expect(page.conversations.length).toBeLessThanOrEqual(2)
      seen.push(...page.conversations.map((c) => c.id))
      cursor = page.nextBefore
      pages++
    } while (cursor !== null && pages < 50)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.slice(0, 7).sort()).toEqual([...opened].sort())
    expect(seen).toHaveLength(before.conversations.length + 7)

    const all = await staffPage()
    expect(all.unreadConversations).toBe(before.unreadConversations + 7)
    expect(all.unreadMessages).toBe(before.unreadMessages + 7)
    for (const query of ['?limit=0', '?limit=51', '?before=abc']) {
      const res = await admin('GET', `/chat/conversations${query}`)
      expect(res.statusCode, query).toBe(400)
    }
  })

  it("keeps each collector's conversation to them, and staff to known conversations", async () => {
    const alice = await t.signIn()
    const bob = await t.signIn()
    const mine = await sendText(alice, '只有我能看到')
    expect(await history(bob)).toEqual([])
    const bobs = await sendText(bob, '我的')
    expect(bobs.conversationId).not.toBe(mine.conversationId)
    expect((await history(bob)).map((m) => m.text)).toEqual(['我的'])

    expect((await admin('GET', '/chat/conversations/999999/messages')).statusCode).toBe(404)
    expect(
      (await reply(999_999, { kind: 'text', clientId: clientId(), text: 'x' })).statusCode,
    ).toBe(404)
    const staffView = await admin('GET', `/chat/conversations/${mine.conversationId}/messages`)
    expect(staffView.json<{ data: ChatMessage[] }>().data.map((m) => m.text)).toEqual([
      '只有我能看到',
    ])

    const anonymous = await t.call({ method: 'GET', path: '/chat/messages' })
    expect(anonymous.statusCode).toBe(401)
    const noStaff = await t.inject({ method: 'GET', url: '/svc/main/admin/chat/conversations' })
    expect(noStaff.statusCode).toBe(401)
  })

  it('fills a card from a real lot and mall item; an unknown one is CHAT_ITEM_NOT_FOUND', async () => {
    const alice = await t.signIn()
    const lotId = await createLot(t)
    const lot = await send(alice, {
      kind: 'card',
      clientId: clientId(),
      card: { kind: 'lot', ref: String(lotId) },
    })
    expect(lot.statusCode, lot.body).toBe(200)
    expect(lot.json<{ data: ChatMessage }>().data).toMatchObject({
      kind: 'card',
      card: {
        kind: 'lot',
        ref: String(lotId),
        title: '民国三年袁世凯像壹圆',
        subtitle: expect.stringContaining('测试专场'),
        price: 100_000,
        link: `/productDetail?id=${lotId}`,
      },
    })

    const { productNo } = await createMallItem(admin, { title: '钱币收藏册', price: 8_800 })
    const mall = await send(alice, {
      kind: 'card',
      clientId: clientId(),
      card: { kind: 'mall', ref: productNo },
    })
    expect(mall.statusCode, mall.body).toBe(200)
    expect(mall.json<{ data: ChatMessage }>().data.card).toMatchObject({
      kind: 'mall',
      ref: productNo,
      title: '钱币收藏册',
      price: 8_800,
      link: `/productDetail?productNo=${productNo}`,
    })

    for (const card of [
      { kind: 'lot', ref: '99999999' },
      { kind: 'lot', ref: 'abc' },
      { kind: 'mall', ref: 'NOPE-1' },
    ]) {
      const res = await send(alice, { kind: 'card', clientId: clientId(), card })
      expect(res.statusCode).toBe(404)
      expect(codeOf(res)).toBe('CHAT_ITEM_NOT_FOUND')
    }
  })

  it('stores a picture as JPEG that only its collector and staff can fetch', async () => {
    const alice = await t.signIn()
    const bob = await t.signIn()
    const res = await send(alice, {
      kind: 'image',
      clientId: clientId(),
      image: await pngDataUrl(64, 48),
    })
    expect(res.statusCode, res.body).toBe(200)
    const message = res.json<{ data: ChatMessage }>().data
    expect(message.kind).toBe('image')
    expect(message.imageUrl).toMatch(/^\/chat\/images\/[0-9a-f]{32}$/)

    const own = await t.call({ method: 'GET', path: message.imageUrl!, as: alice })
    expect(own.statusCode).toBe(200)
    expect(own.headers['content-type']).toBe('image/jpeg')
    expect((await sharp(own.rawPayload).metadata()).format).toBe('jpeg')
    expect((await t.call({ method: 'GET', path: message.imageUrl!, as: bob })).statusCode).toBe(404)
    const staff = await admin('GET', message.imageUrl!)
    expect(staff.statusCode).toBe(200)
    expect(staff.headers['content-type']).toBe('image/jpeg')
    const unknown = '/chat/images/' + '0'.repeat(32)
    expect((await t.call({ method: 'GET', path: unknown, as: alice })).statusCode).toBe(404)
  })

  it("lets a collector's page load their conversation's pictures as an <img> does: cookie only, unsigned", async () => {
    const alice = await t.signIn()
    const bob = await t.signIn()
    const sent = await send(alice, {
      kind: 'image',
      clientId: clientId(),
      image: await pngDataUrl(40, 30),
    })
    expect(sent.statusCode, sent.body).toBe(200)
    const mine = sent.json<{ data: ChatMessage }>().data
    const answered = await reply(mine.conversationId, {
      kind: 'image',
      clientId: clientId(),
      image: await pngDataUrl(30, 40),
    })
    expect(answered.statusCode, answered.body).toBe(200)
    const agents = answered.json<{ data: ChatMessage }>().data

    // The page puts the message's path under the push base (client config) and the browser sends
    // the `sid` cookie and nothing else: no signature headers.
    const img = (imageUrl: string, cookie?: string) =>
      t.inject({
        method: 'GET',
        url: `/svc/push${imageUrl}`,
        headers: { accept: 'image/*', ...(cookie ? { cookie } : {}) },
      })
    for (const message of [mine, agents]) {
      const own = await img(message.imageUrl!, `sid=${alice.sid}`)
      expect(own.statusCode, own.body).toBe(200)
      expect(own.headers['content-type']).toBe('image/jpeg')
      expect(own.headers['cache-control']).toMatch(/^private\b/)
      expect(own.headers['x-content-type-options']).toBe('nosniff')
      expect((await sharp(own.rawPayload).metadata()).format).toBe('jpeg')

      // Another collector, nobody, a made-up session and a staff cookie all see nothing there.
      for (const cookie of [
        `sid=${bob.sid}`,
        undefined,
        'sid=not-a-session',
        `staff_sid=${await staffCookie(t)}`,
      ]) {
        const other = await img(message.imageUrl!, cookie)
        expect(other.statusCode, cookie).toBe(404)
        expect(codeOf(other)).toBe('NOT_FOUND')
      }
    }
    const unknown = await img('/chat/images/' + '0'.repeat(32), `sid=${alice.sid}`)
    expect(unknown.statusCode).toBe(404)
    expect((await img('/chat/images/../../main/chat', `sid=${alice.sid}`)).statusCode).toBe(404)

    // A signed-out session no longer opens it.
    const out = await t.call({ method: 'POST', path: '/passport/logout', as: alice })
    expect(out.statusCode, out.body).toBe(200)
    expect((await img(mine.imageUrl!, `sid=${alice.sid}`)).statusCode).toBe(404)
  })

  it('refuses what is no picture, and a picture of too many pixels, with CHAT_IMAGE_INVALID', async () => {
    const alice = await t.signIn()
    const notImage = `data:image/png;base64,${Buffer.from('not a picture at all').toString('base64')}`
    const huge = await pngDataUrl(6000, 5000)
    for (const image of [notImage, 'no comma here', huge]) {
      const res = await send(alice, { kind: 'image', clientId: clientId(), image })
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400)
      expect(codeOf(res)).toBe('CHAT_IMAGE_INVALID')
    }
    expect(await history(alice)).toEqual([])
  })

  it('stores a resent clientId once, even 20 at the same time', async () => {
    const alice = await t.signIn()
    const id = clientId()
    const first = await sendText(alice, '同一条', id)
    const again = await sendText(alice, '同一条', id)
    expect(again.id).toBe(first.id)

    const racing = clientId()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(alice, { kind: 'text', clientId: racing, text: '并发' }),
      ),
    )
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200))
    const ids = new Set(answers.map((r) => r.json<{ data: ChatMessage }>().data.id))
    expect(ids.size).toBe(1)
    expect((await history(alice)).map((m) => m.text)).toEqual(['并发', '同一条'])

    // A first message racing itself opens one conversation.
    const bob = await t.signIn()
    const opening = clientId()
    const opened = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(bob, { kind: 'text', clientId: opening, text: '你好' }),
      ),
    )
    expect(opened.map((r) => r.statusCode)).toEqual(Array(20).fill(200))
    expect(await history(bob)).toHaveLength(1)
  })

  it('refuses malformed sends and queries with 400', async () => {
    const alice = await t.signIn()
    for (const body of [
      { kind: 'text', text: '没有 clientId' },
      { kind: 'text', clientId: 'short', text: 'x' },
      { kind: 'text', clientId: clientId(), text: '' },
      { kind: 'text', clientId: clientId(), text: '长'.repeat(1001) },
      { kind: 'voice', clientId: clientId() },
      { kind: 'card', clientId: clientId(), card: { kind: 'auction', ref: '1' } },
    ]) {
      const res = await send(alice, body)
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(codeOf(res)).toBe('VALIDATION_FAILED')
    }
    for (const query of ['?limit=0', '?limit=51', '?before=abc']) {
      const res = await t.call({ method: 'GET', path: `/chat/messages${query}`, as: alice })
      expect(res.statusCode, query).toBe(400)
    }
  })

  it('limits a collector to 30 messages a minute', async () => {
    const alice = await t.signIn()
    for (let i = 0; i < 30; i++) await sendText(alice, `第 ${i} 条`)
    const over = await send(alice, { kind: 'text', clientId: clientId(), text: '太多了' })
    expect(over.statusCode).toBe(429)
    expect(codeOf(over)).toBe('RATE_LIMITED')
    t.clock.advance(MINUTE + 1)
    await sendText(alice, '一分钟后')
  })

  it('keeps the rate exact when 60 sends race in at once: 30 stored, 30 RATE_LIMITED', async () => {
    const alice = await t.signIn()
    // The conversation exists already, so every send takes the locked path, not the opening one.
    await sendText(alice, '开始')
    t.clock.advance(MINUTE + 1)
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        send(alice, { kind: 'text', clientId: clientId(), text: `并发 ${i}` }),
      ),
    )
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(30)
    expect(statuses.filter((s) => s === 429)).toHaveLength(30)
    expect((await history(alice, '?limit=50')).filter((m) => m.text !== '开始')).toHaveLength(30)
  })

  it('answers a stored clientId resent in parallel with the stored message, even at the rate limit', async () => {
    const alice = await t.signIn()
    for (let i = 0; i < 29; i++) await sendText(alice, `第 ${i} 条`)
    const id = clientId()
    // The 30th message: every copy but one finds it stored, none counts towards the rate.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        send(alice, { kind: 'text', clientId: id, text: '第 30 条' }),
      ),
    )
    expect(answers.map((r) => r.statusCode)).toEqual(Array.from({ length: 12 }, () => 200))
    expect(new Set(answers.map((r) => r.json<{ data: ChatMessage }>().data.id)).size).toBe(1)
  })

  it("caps a collector's pictures a day by count and by bytes with CHAT_IMAGE_QUOTA; staff are not capped", async () => {
    const capped = await createTestApp(kind, {
      chat: { limits: { imagesPerDay: 3, imageBytesPerDay: 10 * 1024 * 1024 } },
    })
    try {
      const alice = await capped.signIn()
      const picture = async (as: Session) =>
        capped.call({
          method: 'POST',
          path: '/chat/messages',
          as,
          body: { kind: 'image', clientId: clientId(), image: await pngDataUrl(64, 48) },
        })
      for (let i = 0; i < 3; i++) expect((await picture(alice)).statusCode).toBe(200)
      const over = await picture(alice)
      expect(over.statusCode, over.body).toBe(429)
      expect(codeOf(over)).toBe('CHAT_IMAGE_QUOTA')
      // Text still goes, and the agent's pictures are not the collector's quota.
      const text = await capped.call({
        method: 'POST',
        path: '/chat/messages',
        as: alice,
        body: { kind: 'text', clientId: clientId(), text: '图片发不了了' },
      })
      expect(text.statusCode).toBe(200)
      const conversationId = text.json<{ data: ChatMessage }>().data.conversationId
      const staff = await staffCaller(capped)
      const answer = await staff('POST', `/chat/conversations/${conversationId}/messages`, {
        kind: 'image',
        clientId: clientId(),
        image: await pngDataUrl(30, 40),
      })
      expect(answer.statusCode, answer.body).toBe(200)
      // A day later the collector may send pictures again.
      capped.clock.advance(24 * 60 * MINUTE + 1)
      expect((await picture(alice)).statusCode).toBe(200)
    } finally {
      await capped.close()
    }

    const tiny = await createTestApp(kind, { chat: { limits: { imageBytesPerDay: 100 } } })
    try {
      const bob = await tiny.signIn()
      const res = await tiny.call({
        method: 'POST',
        path: '/chat/messages',
        as: bob,
        body: { kind: 'image', clientId: clientId(), image: await pngDataUrl(64, 48) },
      })
      expect(res.statusCode, res.body).toBe(429)
      expect(codeOf(res)).toBe('CHAT_IMAGE_QUOTA')
    } finally {
      await tiny.close()
    }
  })
})

/** Collects a socket's frames so a test can wait for the one it expects. */
function inbox(socket: { on(event: 'message', listener: (data: Buffer) => void): unknown }) {
  const frames: Record<string, unknown>[] = []
  socket.on('message', (data: Buffer) =>
    frames.push(JSON.parse(data.toString()) as Record<string, unknown>),
  )
  return {
    frames,
    async waitFor(match: (m: Record<string, unknown>) => boolean, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const found = frames.find(match)
        if (found) return found
        await new Promise((r) => setTimeout(r, 10))
      }
      throw new Error(`no matching frame; got ${JSON.stringify(frames)}`)
    },
  }
}

async function staffCookie(t: TestApp): Promise<string> {
  await staffCaller(t)
  const login = await t.inject({
    method: 'POST',
    url: '/svc/main/admin/login',
    payload: { username: 'admin', password: 'staff-test-password' },
  })
  return login.cookies.find((c) => c.name === 'staff_sid')!.value
}

type Injector = TestApp['app']

type Box = ReturnType<typeof inbox>

/** Opens a socket with its inbox listening from the start (the hello comes at once). */
async function open(app: Injector, path: string, headers: Record<string, string>) {
  let box: Box | undefined
  const socket = await app.injectWS(path, { headers }, { onInit: (ws) => (box = inbox(ws)) })
  return { socket, box: box! }
}
const userSocket = (app: Injector, as?: Session, headers: Record<string, string> = {}) =>
  open(app, '/svc/push/chat', { ...(as ? { cookie: `sid=${as.sid}` } : {}), ...headers })
const staffSocket = (app: Injector, cookie: string) =>
  open(app, '/svc/main/admin/chat/ws', { cookie: `staff_sid=${cookie}` })

/** The chat sockets: live both ways, on one instance and across two. */
describe.each(databases)('chat sockets ($name)', (kind) => {
  let t: TestApp
  let cookie: string

  beforeAll(async () => {
    t = await createTestApp(kind)
    cookie = await staffCookie(t)
  })
  afterAll(() => t.close())

  it('carries a collector’s message to staff and the answer back, live', async () => {
    const alice = await t.signIn()
    const { socket: user, box: userBox } = await userSocket(t.app, alice)
    const { socket: staff, box: staffBox } = await staffSocket(t.app, cookie)
    expect(await userBox.waitFor((f) => f.type === 'hello')).toEqual({
      type: 'hello',
      role: 'user',
      conversationId: null,
    })
    await staffBox.waitFor((f) => f.type === 'hello' && f.role === 'agent')

    const id = clientId()
    user.send(
      JSON.stringify({ type: 'send', message: { kind: 'text', clientId: id, text: '你好' } }),
    )
    const echoed = await userBox.waitFor((f) => f.type === 'message')
    expect(echoed.message).toMatchObject({ from: 'user', text: '你好', clientId: id })
    const heard = await staffBox.waitFor((f) => f.type === 'message')
    expect(heard).toEqual(echoed)
    const conversationId = (heard.message as ChatMessage).conversationId

    staff.send(
      JSON.stringify({
        type: 'send',
        conversationId,
        message: { kind: 'text', clientId: clientId(), text: '您好，请讲' },
      }),
    )
    const answer = await userBox.waitFor(
      (f) => f.type === 'message' && (f.message as ChatMessage).from === 'agent',
    )
    expect(answer.message).toMatchObject({ conversationId, text: '您好，请讲' })

    user.send(JSON.stringify({ type: 'read' }))
    expect(await staffBox.waitFor((f) => f.type === 'read')).toEqual({
      type: 'read',
      conversationId,
      by: 'user',
      upTo: (answer.message as ChatMessage).id,
    })

    // A resend is acknowledged to the sender only, with the stored message.
    const before = staffBox.frames.length
    user.send(
      JSON.stringify({ type: 'send', message: { kind: 'text', clientId: id, text: '你好' } }),
    )
    await userBox.waitFor(
      (f) =>
        f.type === 'message' && userBox.frames.filter((g) => g.type === 'message').length === 3,
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(staffBox.frames.length).toBe(before)

    user.send(
      JSON.stringify({
        type: 'send',
        message: { kind: 'card', clientId: 'card-client-1', card: { kind: 'lot', ref: '424242' } },
      }),
    )
    expect(await userBox.waitFor((f) => f.type === 'error')).toEqual({
      type: 'error',
      code: 'CHAT_ITEM_NOT_FOUND',
      clientId: 'card-client-1',
    })
    user.send('not json')
    await userBox.waitFor((f) => f.type === 'error' && f.code === 'VALIDATION_FAILED')
    user.terminate()
    staff.terminate()
  })

  it('closes an anonymous collector socket with 1008 and refuses staff without a session', async () => {
    let closed: Promise<number> | undefined
    await t.app.injectWS(
      '/svc/push/chat',
      {},
      {
        onInit: (ws) => {
          closed = new Promise((resolve) => ws.on('close', (code: number) => resolve(code)))
        },
      },
    )
    expect(await closed).toBe(1008)
    await expect(staffSocket(t.app, 'not-a-session')).rejects.toThrow()
    const alice = await t.signIn()
    await expect(userSocket(t.app, alice, { origin: 'https://evil.example' })).rejects.toThrow()
  })

  it('answers frames past the burst with RATE_LIMITED, then closes a socket that keeps on', async () => {
    const alice = await t.signIn()
    let closed: Promise<number> | undefined
    let box: Box | undefined
    const socket = await t.app.injectWS(
      '/svc/push/chat',
      { headers: { cookie: `sid=${alice.sid}` } },
      {
        onInit: (ws) => {
          box = inbox(ws)
          closed = new Promise((resolve) => ws.on('close', (code: number) => resolve(code)))
        },
      },
    )
    await box!.waitFor((f) => f.type === 'hello')
    // The fake clock stands still, so the bucket does not refill: 10 frames pass, then refusals.
    for (let i = 0; i < 11; i++) socket.send(JSON.stringify({ type: 'read' }))
    await box!.waitFor((f) => f.type === 'error' && f.code === 'RATE_LIMITED')
    for (let i = 0; i < 9; i++) socket.send(JSON.stringify({ type: 'read' }))
    expect(await closed).toBe(1008)
  })

  it('answers the heartbeat’s ping with a pong on both sockets, and nothing more', async () => {
    const alice = await t.signIn()
    const { socket: user, box: userBox } = await userSocket(t.app, alice)
    const { socket: staff, box: staffBox } = await staffSocket(t.app, cookie)
    const hello = await userBox.waitFor((f) => f.type === 'hello')
    const staffHello = await staffBox.waitFor((f) => f.type === 'hello')
    const pongs = (box: Box) => box.frames.filter((f) => f.type === 'pong').length

    user.send(JSON.stringify({ type: 'ping' }))
    await userBox.waitFor((f) => f.type === 'pong')
    staff.send(JSON.stringify({ type: 'ping' }))
    await staffBox.waitFor((f) => f.type === 'pong')
    // Neither side hears the other's ping, and nothing else comes of it.
    await new Promise((r) => setTimeout(r, 50))
    expect(userBox.frames).toEqual([hello, { type: 'pong' }])
    expect(staffBox.frames).toEqual([staffHello, { type: 'pong' }])

    // The fake clock stands still, so no bucket refills. A burst of frames spends the frame
    // bucket; the ping after it is answered all the same, since pings have their own.
    for (let i = 0; i < 10; i++) user.send(JSON.stringify({ type: 'read' }))
    user.send(JSON.stringify({ type: 'ping' }))
    await userBox.waitFor(() => pongs(userBox) === 2)
    expect(userBox.frames.filter((f) => f.type === 'error')).toEqual([])
    user.send(JSON.stringify({ type: 'read' }))
    await userBox.waitFor((f) => f.type === 'error' && f.code === 'RATE_LIMITED')

    // A flood of pings is bounded like frames: the 11th in a burst is refused.
    for (let i = 0; i < 9; i++) user.send(JSON.stringify({ type: 'ping' }))
    await userBox.waitFor(() => userBox.frames.filter((f) => f.type === 'error').length === 2)
    expect(pongs(userBox)).toBe(10)
    expect(userBox.frames.at(-1)).toEqual({ type: 'error', code: 'RATE_LIMITED' })
    user.terminate()
    staff.terminate()
  })

  it('delivers across two instances over one database and a shared bus', async () => {
    const bus = new InProcessEventBus()
    const a = await createTestApp(kind, { bus })
    const b = await buildApp({
      // The database belongs to `a`, which closes it.
      database: { ...a.database, close: () => Promise.resolve() } satisfies Database,
      clock: a.clock,
      sms: new SandboxSmsSender(),
      env: 'development',
      webDist: '/nonexistent',
      bus,
    })
    await b.ready()
    try {
      const alice = await a.signIn()
      const bobStaff = await staffCookie(a)
      const { socket: staffOnB, box: staffBox } = await staffSocket(b, bobStaff)
      await staffBox.waitFor((f) => f.type === 'hello')
      const { socket: userOnB, box: userBox } = await userSocket(b, alice)
      await userBox.waitFor((f) => f.type === 'hello')

      const sent = await a.call({
        method: 'POST',
        path: '/chat/messages',
        as: alice,
        body: { kind: 'text', clientId: clientId(), text: '从 A 发出' },
      })
      expect(sent.statusCode, sent.body).toBe(200)
      const heard = await staffBox.waitFor((f) => f.type === 'message')
      expect(heard.message).toMatchObject({ text: '从 A 发出' })
      const conversationId = (heard.message as ChatMessage).conversationId
      const answered = await a.inject({
        method: 'POST',
        url: `/svc/main/admin/chat/conversations/${conversationId}/messages`,
        cookies: { staff_sid: bobStaff },
        payload: { kind: 'text', clientId: clientId(), text: 'B 上的用户收到' },
      })
      expect(answered.statusCode, answered.body).toBe(200)
      await userBox.waitFor(
        (f) => f.type === 'message' && (f.message as ChatMessage).text === 'B 上的用户收到',
      )
      userOnB.terminate()
      staffOnB.terminate()
    } finally {
      await b.close()
      await a.close()
    }
  })
})

const postgres = databases.find((d) => d.name === 'postgres')
const redis = await redisAvailable()

/** Production mode (DESIGN §1): two instances on PostgreSQL, the chat's events through Redis. */
describe.runIf(postgres && redis)('chat across instances on PostgreSQL + Redis', () => {
  let instances: TwoInstances

  beforeAll(async () => {
    instances = await startTwoInstances(postgres!)
  })
  afterAll(() => instances.close())

  it('carries a message sent to instance A to sockets on instance B, both ways', async () => {
    const { a, b } = instances
    const alice = await a.signIn()
    const cookie = await staffCookie(a)
    const { socket: staffOnB, box: staffBox } = await staffSocket(b, cookie)
    const { socket: userOnB, box: userBox } = await userSocket(b, alice)
    await userBox.waitFor((f) => f.type === 'hello')
    await staffBox.waitFor((f) => f.type === 'hello')

    const sent = await a.call({
      method: 'POST',
      path: '/chat/messages',
      as: alice,
      body: { kind: 'text', clientId: clientId(), text: '经 Redis' },
    })
    expect(sent.statusCode, sent.body).toBe(200)
    const heard = await staffBox.waitFor((f) => f.type === 'message')
    expect(heard.message).toEqual(sent.json<{ data: ChatMessage }>().data)
    // The user's own socket on B hears it too (another tab of theirs).
    await userBox.waitFor((f) => f.type === 'message')

    const conversationId = (heard.message as ChatMessage).conversationId
    staffOnB.send(
      JSON.stringify({
        type: 'send',
        conversationId,
        message: { kind: 'text', clientId: clientId(), text: '收到' },
      }),
    )
    await userBox.waitFor((f) => f.type === 'message' && (f.message as ChatMessage).text === '收到')
    userOnB.terminate()
    staffOnB.terminate()
  })
})
