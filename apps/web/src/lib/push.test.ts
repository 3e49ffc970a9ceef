import {
  PUSH_QUIET_MS,
  type PushChat,
  type PushLot,
  type PushOutbid,
  type PushReminder,
} from '@numisma/contracts/push'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  createPushManager,
  parsePush,
  pushSocketUrl,
  reconnectDelay,
  type PushSocket,
} from './push'

class FakeSocket implements PushSocket {
  readyState = 0
  sent: unknown[] = []
  closed = false
  onopen: (() => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: (() => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.closed = true
    this.readyState = 3
  }
  // Server side of the fake.
  accept() {
    this.readyState = 1
    this.onopen?.()
  }
  drop() {
    this.readyState = 3
    this.onclose?.()
  }
  push(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
}

function setup(options: { visible?: () => boolean; now?: () => number } = {}) {
  const sockets: FakeSocket[] = []
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = []
  const queue: (() => void)[] = []
  const manager = createPushManager({
    url: () => 'ws://shop.test/svc/push/ws',
    createSocket: (url) => {
      const socket = new FakeSocket(url)
      sockets.push(socket)
      return socket
    },
    setTimer: (fn, ms) => {
      const timer = { fn, ms, cleared: false }
      timers.push(timer)
      return timer
    },
    clearTimer: (handle) => {
      ;(handle as { cleared: boolean }).cleared = true
    },
    defer: (fn) => queue.push(fn),
    isVisible: options.visible,
    now: options.now,
  })
  const flush = () => {
    while (queue.length > 0) queue.shift()!()
  }
  const fire = () => {
    const timer = timers.filter((t) => !t.cleared).at(-1)!
    timer.cleared = true
    timer.fn()
  }
  return { manager, sockets, timers, flush, fire }
}

/** Messages are checked before they are dispatched: lets the checks run. */
const checked = () => new Promise((resolve) => setTimeout(resolve, 0))

// The check's code (zod and the push contract) loads with the first message; here, beforehand.
beforeAll(() => parsePush('{}'))

const lot = (lotId: number, price: number): PushLot => ({
  type: 'lot',
  lotId,
  price,
  bidCount: 1,
  endsAt: '2030-01-01T00:00:00.000Z',
  status: 'live',
  leader: '1**3',
})
const outbid = (lotId: number, price: number): PushOutbid => ({ type: 'outbid', lotId, price })

const reminder = (lotId: number): PushReminder => ({
  type: 'reminder',
  lotId,
  title: '1980 Great Wall 1 yuan',
  endsAt: '2030-01-01T00:05:00.000Z',
})

describe('push manager', () => {
  it('connects lazily and subscribes to the union of wanted lots in one message', () => {
    const { manager, sockets, flush } = setup()
    flush()
    expect(sockets).toHaveLength(0)
    manager.watchLots([1, 2], () => undefined)
    manager.watchLots([2, 3], () => undefined)
    flush()
    expect(sockets).toHaveLength(1)
    sockets[0]!.accept()
    expect(sockets[0]!.sent).toEqual([{ type: 'subscribe', lotIds: [1, 2, 3] }])
  })

  it('replaces the subscription when a component leaves, and closes when nothing is wanted', () => {
    const { manager, sockets, flush } = setup()
    const releaseA = manager.watchLots([1, 2], () => undefined)
    const releaseB = manager.watchLots([3], () => undefined)
    flush()
    sockets[0]!.accept()
    releaseB()
    flush()
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'subscribe', lotIds: [1, 2] })
    // Same union again: nothing sent.
    const releaseC = manager.watchLots([2], () => undefined)
    flush()
    expect(sockets[0]!.sent).toHaveLength(2)
    releaseA()
    releaseC()
    flush()
    expect(sockets[0]!.closed).toBe(true)
  })

  it('routes lot messages to the components watching that lot and outbid to its listeners', async () => {
    const { manager, sockets, flush } = setup()
    const a: number[] = []
    const b: number[] = []
    const outbids: number[] = []
    manager.watchLots([1], (m) => a.push(m.price!))
    manager.watchLots([2], (m) => b.push(m.price!))
    manager.onOutbid((m) => outbids.push(m.lotId))
    flush()
    sockets[0]!.accept()
    sockets[0]!.push({ type: 'hello', userId: 7 })
    sockets[0]!.push(lot(1, 500))
    sockets[0]!.push(lot(2, 900))
    sockets[0]!.push(outbid(2, 900))
    sockets[0]!.push('not json')
    await checked()
    expect(a).toEqual([500])
    expect(b).toEqual([900])
    expect(outbids).toEqual([2])
  })

  it('dispatches the messages in the order they came, each once checked', async () => {
    const { manager, sockets, flush } = setup()
    const prices: number[] = []
    manager.watchLots([1], (m) => prices.push(m.price!))
    flush()
    sockets[0]!.accept()
    for (const price of [100, 200, 300, 400]) sockets[0]!.push(lot(1, price))
    expect(prices).toEqual([])
    await checked()
    expect(prices).toEqual([100, 200, 300, 400])
  })

  it('routes reminders to their listeners, and a reminder listener alone opens the socket', async () => {
    const { manager, sockets, flush } = setup()
    const seen: PushReminder[] = []
    const outbids: number[] = []
    const release = manager.onReminder((m) => seen.push(m))
    manager.onOutbid((m) => outbids.push(m.lotId))
    flush()
    expect(sockets).toHaveLength(1)
    sockets[0]!.accept()
    sockets[0]!.push(reminder(4))
    sockets[0]!.push({ type: 'reminder', lotId: 5 }) // malformed: dropped
    await checked()
    expect(seen).toEqual([reminder(4)])
    expect(outbids).toEqual([])
    release()
    sockets[0]!.push(reminder(6))
    await checked()
    expect(seen).toHaveLength(1)
  })

  it('routes chat news to its listeners, and a chat listener alone opens the socket', async () => {
    const { manager, sockets, flush } = setup()
    const seen: PushChat[] = []
    const reminders: number[] = []
    const release = manager.onChat((m) => seen.push(m))
    manager.onReminder((m) => reminders.push(m.lotId))
    flush()
    expect(sockets).toHaveLength(1)
    sockets[0]!.accept()
    sockets[0]!.push({ type: 'chat', conversationId: 3 })
    sockets[0]!.push({ type: 'chat', conversationId: '3' }) // malformed: dropped
    await checked()
    expect(seen).toEqual([{ type: 'chat', conversationId: 3 }])
    expect(reminders).toEqual([])
    release()
    sockets[0]!.push({ type: 'chat', conversationId: 3 })
    await checked()
    expect(seen).toHaveLength(1)
  })

  it('closes when the last reminder listener leaves and nothing else is wanted', () => {
    const { manager, sockets, flush } = setup()
    const release = manager.onReminder(() => undefined)
    flush()
    sockets[0]!.accept()
    release()
    flush()
    expect(sockets[0]!.closed).toBe(true)
  })

  it('reconnects with exponential backoff and subscribes again to what is wanted then', () => {
    const { manager, sockets, timers, flush, fire } = setup()
    manager.watchLots([5], () => undefined)
    flush()
    sockets[0]!.accept()
    sockets[0]!.drop()
    expect(timers.at(-1)!.ms).toBe(1_000)
    fire()
    expect(sockets).toHaveLength(2)
    sockets[1]!.drop() // refused before opening
    expect(timers.at(-1)!.ms).toBe(2_000)
    manager.watchLots([6], () => undefined)
    flush()
    fire()
    sockets[2]!.accept()
    expect(sockets[2]!.sent).toEqual([{ type: 'subscribe', lotIds: [5, 6] }])
    // An open alone is no success: a server may accept and close at once.
    sockets[2]!.drop()
    expect(timers.at(-1)!.ms).toBe(4_000)
    fire()
    // The server's greeting is: the backoff starts again.
    sockets[3]!.accept()
    sockets[3]!.push({ type: 'hello', userId: null })
    sockets[3]!.drop()
    expect(timers.at(-1)!.ms).toBe(1_000)
  })

  it('does not reconnect once nothing is wanted', () => {
    const { manager, sockets, timers, flush } = setup()
    const release = manager.watchLots([5], () => undefined)
    flush()
    sockets[0]!.accept()
    release()
    flush()
    sockets[0]!.drop()
    expect(timers.filter((t) => !t.cleared)).toHaveLength(0)
  })

  it('asks the server with a ping after a quiet spell; the pong reaches no listener', async () => {
    let now = 0
    const { manager, sockets, timers, flush } = setup({ now: () => now })
    const seen: unknown[] = []
    manager.watchLots([5], (message) => seen.push(message))
    manager.onOutbid((message) => seen.push(message))
    flush()
    sockets[0]!.accept()
    const quiet = timers.find((t) => !t.cleared && t.ms === PUSH_QUIET_MS)!
    now = PUSH_QUIET_MS
    quiet.fn()
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'ping' })
    sockets[0]!.push({ type: 'pong' })
    await checked()
    expect(seen).toEqual([])
    expect(sockets[0]!.closed).toBe(false)
  })

  it('lets the socket go while the page is hidden and comes back when shown', () => {
    let visible = true
    const { manager, sockets, flush } = setup({ visible: () => visible })
    manager.onOutbid(() => undefined)
    manager.watchLots([8], () => undefined)
    flush()
    sockets[0]!.accept()
    visible = false
    manager.visibilityChanged()
    expect(sockets[0]!.closed).toBe(true)
    visible = true
    manager.visibilityChanged()
    expect(sockets).toHaveLength(2)
    sockets[1]!.accept()
    expect(sockets[1]!.sent).toEqual([{ type: 'subscribe', lotIds: [8] }])
  })
})

describe('reconnectDelay', () => {
  it('doubles from one second up to thirty', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(reconnectDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ])
  })
})

describe('parsePush', () => {
  it('keeps every message of the contract, from text or already parsed', async () => {
    expect(await parsePush(JSON.stringify(lot(1, 100)))).toEqual(lot(1, 100))
    expect(await parsePush({ ...lot(1, 100), price: null, leader: null })).toEqual({
      ...lot(1, 100),
      price: null,
      leader: null,
    })
    expect(await parsePush(outbid(1, 100))).toEqual(outbid(1, 100))
    expect(await parsePush(JSON.stringify(reminder(4)))).toEqual(reminder(4))
    expect(await parsePush({ type: 'chat', conversationId: 3 })).toEqual({
      type: 'chat',
      conversationId: 3,
    })
    expect(await parsePush({ type: 'hello', userId: 7 })).toEqual({ type: 'hello', userId: 7 })
    expect(await parsePush({ type: 'error', code: 'RATE_LIMITED' })).toEqual({
      type: 'error',
      code: 'RATE_LIMITED',
    })
  })

  it('rejects malformed messages instead of passing them on half-typed', async () => {
    const malformed: unknown[] = [
      '{',
      'null',
      42,
      [],
      { lotId: 1, price: 100 },
      { type: 'bid', lotId: 1 },
      { ...lot(1, 100), status: 'odd' },
      { ...lot(1, 100), price: 1.5 },
      { ...lot(1, 100), bidCount: '1' },
      { ...lot(1, 100), leader: undefined },
      { type: 'outbid', lotId: 1, price: null },
      { type: 'outbid', lotId: '1', price: 100 },
      { type: 'reminder', lotId: 4, endsAt: '2030-01-01T00:05:00.000Z' },
      { ...reminder(4), endsAt: 1_893_456_300_000 },
      { type: 'reminder', lotId: 4.5, title: 'x', endsAt: 'x' },
    ]
    for (const message of malformed) {
      const raw = typeof message === 'string' ? message : JSON.stringify(message)
      expect(await parsePush(raw), raw).toBeNull()
    }
  })
})

describe('pushSocketUrl', () => {
  it('builds ws(s)://host/svc/push/ws from the push base', () => {
    expect(pushSocketUrl('/svc/push', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe(
      'ws://127.0.0.1:8080/svc/push/ws',
    )
    expect(pushSocketUrl('/svc/push/', { protocol: 'https:', host: 'shop.example' })).toBe(
      'wss://shop.example/svc/push/ws',
    )
    expect(pushSocketUrl('https://push.example/svc/push', { protocol: 'http:', host: 'x' })).toBe(
      'wss://push.example/svc/push/ws',
    )
  })
})
