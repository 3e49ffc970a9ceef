import { PUSH_ANSWER_MS, PUSH_QUIET_MS } from '@numisma/contracts/push-socket'
import { describe, expect, it } from 'vitest'
import { FakeWebSocket as FakeSocket } from '../../test/fake-web-socket'
import { openChatSocket, socketUrl } from './socket'

function harness() {
  let now = 0
  const sockets: FakeSocket[] = []
  const timers: { fn: () => void; ms: number; due: number; cleared: boolean; ran?: true }[] = []
  const frames: unknown[] = []
  let opens = 0
  let closes = 0
  const ended: string[] = []
  const chat = openChatSocket({
    url: 'ws://x/svc/push/chat',
    onFrame: (f) => frames.push(f),
    onOpen: () => (opens += 1),
    onClose: () => (closes += 1),
    onEnded: (reason) => ended.push(reason),
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
    now: () => now,
  })
  const pending = () => timers.filter((t) => !t.cleared && !t.ran)
  /** Moves the clock to the earliest pending timer and runs it. */
  const next = () => {
    const timer = pending().sort((a, b) => a.due - b.due)[0]!
    timer.ran = true
    now = timer.due
    timer.fn()
    return timer
  }
  const serverSends = (socket: FakeSocket, frame: unknown) =>
    socket.onmessage?.({ data: JSON.stringify(frame) })
  return {
    chat,
    sockets,
    pending,
    next,
    serverSends,
    frames,
    opens: () => opens,
    closes: () => closes,
    ended,
  }
}

describe('openChatSocket', () => {
  it('passes valid frames on and ignores the rest', () => {
    const h = harness()
    h.sockets[0]!.open()
    h.sockets[0]!.onmessage?.({ data: '{"type":"hello","role":"user","conversationId":null}' })
    h.sockets[0]!.onmessage?.({ data: '{"type":"nope"}' })
    h.sockets[0]!.onmessage?.({ data: 'not json' })
    h.serverSends(h.sockets[0]!, { type: 'pong' })
    expect(h.frames).toEqual([{ type: 'hello', role: 'user', conversationId: null }])
    expect(h.opens()).toBe(1)
  })

  it('reconnects with growing delays and resyncs on each open', () => {
    const h = harness()
    h.sockets[0]!.open()
    h.sockets[0]!.onclose?.()
    expect(h.pending().map((t) => t.ms)).toEqual([1000])
    h.next()
    h.sockets[1]!.onclose?.()
    expect(h.pending().map((t) => t.ms)).toEqual([2000])
    h.next()
    h.sockets[2]!.open()
    expect(h.opens()).toBe(2)
  })

  it('stops for good when the server ends it for who the caller is, not for a rate limit', () => {
    const h = harness()
    h.sockets[0]!.open()
    h.sockets[0]!.onclose?.({ code: 1008, reason: 'rate limited' })
    expect(h.pending().map((t) => t.ms)).toEqual([1000])
    expect(h.ended).toEqual([])
    h.next()
    h.sockets[1]!.open()
    // Signed out (here, in another tab or on another instance): every reopen would be refused.
    h.sockets[1]!.onclose?.({ code: 1008, reason: 'SESSION_INVALID' })
    expect(h.pending()).toEqual([])
    expect(h.ended).toEqual(['SESSION_INVALID'])
    expect(h.closes()).toBe(2)
    expect(h.sockets).toHaveLength(2)
  })

  it('stays closed once closed', () => {
    const h = harness()
    h.sockets[0]!.open()
    h.chat.close()
    expect(h.sockets[0]!.closed).toBe(true)
    h.sockets[0]!.onclose?.()
    expect(h.pending()).toEqual([])
  })

  it('pings after a quiet spell and keeps the socket while the server answers; the pong reaches no screen', () => {
    const h = harness()
    h.sockets[0]!.open()
    const quiet = h.next()
    expect(quiet.ms).toBe(PUSH_QUIET_MS)
    expect(h.sockets[0]!.sent.map((s) => JSON.parse(s) as unknown)).toEqual([{ type: 'ping' }])
    h.serverSends(h.sockets[0]!, { type: 'pong' })
    expect(h.next().ms).toBe(PUSH_ANSWER_MS)
    expect(h.frames).toEqual([])
    expect(h.sockets[0]!.closed).toBe(false)
    expect(h.sockets).toHaveLength(1)
    // The next ping comes after another quiet spell from the pong.
    expect(h.next().due).toBe(PUSH_QUIET_MS * 2)
    expect(h.sockets[0]!.sent).toHaveLength(2)
  })

  it('gives up a socket that does not answer its ping and opens a new one, which resyncs', () => {
    const h = harness()
    h.sockets[0]!.open()
    h.next() // quiet: ping
    expect(h.sockets[0]!.sent).toEqual([JSON.stringify({ type: 'ping' })])
    h.next() // no answer
    expect(h.sockets[0]!.closed).toBe(true)
    expect(h.closes()).toBe(1)
    expect(h.next().ms).toBe(1000)
    expect(h.sockets).toHaveLength(2)
    h.sockets[1]!.open()
    expect(h.opens()).toBe(2)
  })

  it('builds socket URLs from relative and absolute bases', () => {
    const loc = { protocol: 'https:', host: 'shop.example' }
    expect(socketUrl('/svc/push', '/chat', loc)).toBe('wss://shop.example/svc/push/chat')
    expect(socketUrl('https://push.example/svc/push/', '/chat', loc)).toBe(
      'wss://push.example/svc/push/chat',
    )
  })
})
