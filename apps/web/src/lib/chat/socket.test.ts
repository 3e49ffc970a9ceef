import { describe, expect, it } from 'vitest'
import { FakeWebSocket as FakeSocket } from '../../test/fake-web-socket'
import { openChatSocket, socketUrl } from './socket'

function harness() {
  const sockets: FakeSocket[] = []
  const timers: { fn: () => void; ms: number }[] = []
  const frames: unknown[] = []
  let opens = 0
  const chat = openChatSocket({
    url: 'ws://x/svc/push/chat',
    onFrame: (f) => frames.push(f),
    onOpen: () => (opens += 1),
    createSocket: () => {
      const s = new FakeSocket()
      sockets.push(s)
      return s
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => undefined,
  })
  return { chat, sockets, timers, frames, opens: () => opens }
}

describe('openChatSocket', () => {
  it('passes valid frames on and ignores the rest', () => {
    const h = harness()
    h.sockets[0]!.onopen?.()
    h.sockets[0]!.onmessage?.({ data: '{"type":"hello","role":"user","conversationId":null}' })
    h.sockets[0]!.onmessage?.({ data: '{"type":"nope"}' })
    h.sockets[0]!.onmessage?.({ data: 'not json' })
    expect(h.frames).toEqual([{ type: 'hello', role: 'user', conversationId: null }])
    expect(h.opens()).toBe(1)
  })

  it('reconnects with growing delays and resyncs on each open', () => {
    const h = harness()
    h.sockets[0]!.onopen?.()
    h.sockets[0]!.onclose?.()
    expect(h.timers.map((t) => t.ms)).toEqual([1000])
    h.timers[0]!.fn()
    h.sockets[1]!.onclose?.()
    expect(h.timers.map((t) => t.ms)).toEqual([1000, 2000])
    h.timers[1]!.fn()
    h.sockets[2]!.onopen?.()
    expect(h.opens()).toBe(2)
  })

  it('stays closed once closed', () => {
    const h = harness()
    h.chat.close()
    expect(h.sockets[0]!.closed).toBe(true)
    h.sockets[0]!.onclose?.()
    expect(h.timers).toEqual([])
  })

  it('builds socket URLs from relative and absolute bases', () => {
    const loc = { protocol: 'https:', host: 'shop.example' }
    expect(socketUrl('/svc/push', '/chat', loc)).toBe('wss://shop.example/svc/push/chat')
    expect(socketUrl('https://push.example/svc/push/', '/chat', loc)).toBe(
      'wss://push.example/svc/push/chat',
    )
  })
})
