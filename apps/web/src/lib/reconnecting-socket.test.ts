import { describe, expect, it } from 'vitest'
import { FakeWebSocket as FakeSocket } from '../test/fake-web-socket'
import { PUSH_CLOSE_RESTART, RESTART_RETRY_MAX_MS } from '@numisma/contracts/push-socket'
import {
  reconnectDelay,
  reconnectingSocket,
  RESTART_JITTER_MS,
  type Heartbeat,
  type WebSocketLike,
} from './reconnecting-socket'

function harness(wanted = { now: true }, heartbeat?: Heartbeat) {
  let now = 0
  const sockets: FakeSocket[] = []
  const timers: { fn: () => void; ms: number; due: number; cleared: boolean; ran?: true }[] = []
  const events: string[] = []
  const socket = reconnectingSocket({
    url: () => 'ws://x/y',
    createSocket: () => {
      const s = new FakeSocket()
      sockets.push(s)
      return s
    },
    setTimer: (fn, ms) => {
      const timer = { fn, ms, due: now + ms, cleared: false }
      timers.push(timer)
      return timer
    },
    clearTimer: (handle) => ((handle as { cleared: boolean }).cleared = true),
    wanted: () => wanted.now,
    onOpen: () => events.push('open'),
    onMessage: (data) => events.push(`message ${String(data)}`),
    onClose: () => events.push('close'),
    heartbeat,
    now: () => now,
  })
  /** Moves the clock to the earliest pending timer and runs it. */
  const next = () => {
    const timer = timers.filter((t) => !t.cleared && !t.ran).sort((a, b) => a.due - b.due)[0]!
    timer.ran = true
    now = timer.due
    timer.fn()
    return timer
  }
  return { socket, sockets, timers, events, next, at: (ms: number) => (now = ms) }
}

describe('a reconnecting socket', () => {
  it('reopens after drops with a doubling delay, reset once a socket hears the server', () => {
    const { socket, sockets, timers, events } = harness()
    socket.connect()
    socket.connect()
    expect(sockets).toHaveLength(1)
    sockets[0]!.open()
    expect(socket.send('a')).toBe(true)
    sockets[0]!.onmessage?.({ data: 'x' })
    sockets[0]!.onclose?.()
    expect(socket.send('b')).toBe(false)
    expect(timers.map((t) => t.ms)).toEqual([reconnectDelay(1)])
    timers[0]!.fn()
    sockets[1]!.onclose?.()
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000])
    timers[1]!.fn()
    // Accepted and closed before a word (a server refusing the caller): no success, no reset.
    sockets[2]!.open()
    sockets[2]!.onclose?.()
    expect(timers.at(-1)!.ms).toBe(4000)
    timers[2]!.fn()
    sockets[3]!.open()
    sockets[3]!.onmessage?.({ data: 'y' })
    sockets[3]!.onclose?.()
    expect(timers.at(-1)!.ms).toBe(1000)
    expect(events).toEqual([
      'open',
      'message x',
      'close',
      'close',
      'open',
      'close',
      'open',
      'message y',
      'close',
    ])
    expect(sockets[0]!.sent).toEqual(['a'])
  })

  it('stays closed when no longer wanted, and retries at once when asked', () => {
    const wanted = { now: true }
    const { socket, sockets, timers } = harness(wanted)
    socket.connect()
    sockets[0]!.onclose?.()
    socket.retryNow()
    expect(timers[0]!.cleared).toBe(true)
    socket.connect()
    expect(sockets).toHaveLength(2)
    socket.disconnect()
    expect(sockets[1]!.closed).toBe(true)
    wanted.now = false
    socket.connect()
    sockets[2]!.onclose?.()
    expect(timers).toHaveLength(1)
    // A late event of a socket let go changes nothing.
    sockets[1]!.onopen?.()
    expect(socket.isOpen()).toBe(false)
  })

  it('after a 1012 restart close waits the server’s hint plus its own jitter, then backs off afresh', () => {
    const timers: { fn: () => void; ms: number }[] = []
    const sockets: FakeSocket[] = []
    let random = 0.25
    const socket = reconnectingSocket({
      url: () => 'ws://x/y',
      createSocket: () => {
        const s = new FakeSocket()
        sockets.push(s)
        return s
      },
      setTimer: (fn, ms) => timers.push({ fn, ms }),
      clearTimer: () => undefined,
      wanted: () => true,
      onOpen: () => undefined,
      onMessage: () => undefined,
      random: () => random,
    })
    const close = (s: WebSocketLike, event?: { code?: number; reason?: string }) =>
      s.onclose?.(event)
    socket.connect()
    sockets[0]!.open()
    close(sockets[0]!, { code: PUSH_CLOSE_RESTART, reason: '{"retryAfterMs":4000}' })
    expect(timers.map((t) => t.ms)).toEqual([4000 + 0.25 * RESTART_JITTER_MS])
    // Two clients told the same wait still come back apart.
    timers[0]!.fn()
    sockets[1]!.open()
    random = 0.75
    close(sockets[1]!, { code: PUSH_CLOSE_RESTART, reason: '{"retryAfterMs":4000}' })
    expect(timers[1]!.ms).toBe(4000 + 0.75 * RESTART_JITTER_MS)
    // The reopen fails: the ordinary backoff, from its start.
    timers[1]!.fn()
    close(sockets[2]!)
    expect(timers[2]!.ms).toBe(reconnectDelay(1))
    // A 1012 without a usable hint, or another code, is an ordinary drop.
    timers[2]!.fn()
    close(sockets[3]!, { code: PUSH_CLOSE_RESTART, reason: 'going away' })
    expect(timers[3]!.ms).toBe(reconnectDelay(2))
    timers[3]!.fn()
    close(sockets[4]!, { code: 1001, reason: '{"retryAfterMs":9000}' })
    expect(timers[4]!.ms).toBe(reconnectDelay(3))
    // A hint beyond the contract's maximum is capped.
    timers[4]!.fn()
    close(sockets[5]!, { code: PUSH_CLOSE_RESTART, reason: '{"retryAfterMs":3600000}' })
    expect(timers[5]!.ms).toBe(RESTART_RETRY_MAX_MS + 0.75 * RESTART_JITTER_MS)
  })

  describe('with a heartbeat', () => {
    const HEARTBEAT = { message: 'ping', quietMs: 25_000, answerMs: 10_000 }

    const beating = () => harness({ now: true }, HEARTBEAT)

    it('asks after a quiet spell and stays when the server answers', () => {
      const { socket, sockets, next, at } = beating()
      socket.connect()
      sockets[0]!.open()
      expect(next().ms).toBe(25_000)
      expect(sockets[0]!.sent).toEqual(['ping'])
      at(30_000)
      sockets[0]!.onmessage?.({ data: 'pong' })
      // Answered at 30 s: the next ping goes a quiet spell later, at 55 s.
      expect(next().due).toBe(35_000)
      expect(sockets[0]!.sent).toEqual(['ping'])
      expect(next().due).toBe(55_000)
      expect(sockets[0]!.sent).toEqual(['ping', 'ping'])
      expect(socket.isOpen()).toBe(true)
      expect(sockets[0]!.closed).toBe(false)
    })

    it('does not ask while messages keep coming', () => {
      const { socket, sockets, next, at } = beating()
      socket.connect()
      sockets[0]!.open()
      at(20_000)
      sockets[0]!.onmessage?.({ data: 'lot' })
      // At 25 s the socket has been quiet for 5 s only: it waits the other 20.
      expect(next().due).toBe(25_000)
      expect(sockets[0]!.sent).toEqual([])
      expect(next().due).toBe(45_000)
      expect(sockets[0]!.sent).toEqual(['ping'])
    })

    it('gives a socket that hears nothing up and opens a new one', () => {
      const { socket, sockets, timers, events, next } = beating()
      socket.connect()
      sockets[0]!.open()
      next()
      expect(next().ms).toBe(10_000)
      expect(sockets[0]!.closed).toBe(true)
      expect(socket.isOpen()).toBe(false)
      expect(events).toEqual(['open', 'close'])
      expect(timers.at(-1)!.ms).toBe(reconnectDelay(1))
      next()
      expect(sockets).toHaveLength(2)
      // The old socket's late close changes nothing; the new one is the socket now.
      sockets[0]!.onclose?.()
      sockets[1]!.open()
      expect(events).toEqual(['open', 'close', 'open'])
      expect(socket.send('subscribe')).toBe(true)
    })

    it('stops asking once disconnected or closed', () => {
      const { socket, sockets, timers } = beating()
      socket.connect()
      sockets[0]!.open()
      socket.disconnect()
      expect(timers.every((t) => t.cleared)).toBe(true)
      socket.connect()
      sockets[1]!.open()
      sockets[1]!.onclose?.()
      expect(timers.filter((t) => !t.cleared).map((t) => t.ms)).toEqual([reconnectDelay(1)])
    })
  })
})
