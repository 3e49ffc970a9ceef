import { describe, expect, it } from 'vitest'
import { FakeWebSocket as FakeSocket } from '../test/fake-web-socket'
import { reconnectDelay, reconnectingSocket } from './reconnecting-socket'

function harness(wanted = { now: true }) {
  const sockets: FakeSocket[] = []
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = []
  const events: string[] = []
  const socket = reconnectingSocket({
    url: () => 'ws://x/y',
    createSocket: () => {
      const s = new FakeSocket()
      sockets.push(s)
      return s
    },
    setTimer: (fn, ms) => {
      const timer = { fn, ms, cleared: false }
      timers.push(timer)
      return timer
    },
    clearTimer: (handle) => ((handle as { cleared: boolean }).cleared = true),
    wanted: () => wanted.now,
    onOpen: () => events.push('open'),
    onMessage: (data) => events.push(`message ${String(data)}`),
    onClose: () => events.push('close'),
  })
  return { socket, sockets, timers, events }
}

describe('a reconnecting socket', () => {
  it('reopens after drops with a doubling delay, reset by a successful open', () => {
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
    sockets[2]!.open()
    sockets[2]!.onclose?.()
    expect(timers.at(-1)!.ms).toBe(1000)
    expect(events).toEqual(['open', 'message x', 'close', 'close', 'open', 'close'])
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
})
