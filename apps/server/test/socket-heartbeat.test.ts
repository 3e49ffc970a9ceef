import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HEARTBEAT_SLICE,
  type HeartbeatSocket,
  type HeartbeatTimers,
  startSocketHeartbeat,
} from '../src/platform/socket-heartbeat'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { listen, openPush, type PushInbox } from './helpers/push-client'

const [sqlite] = await testDatabases()

/** A socket as `ws` shows it to the heartbeat: pings counted, pongs and messages delivered by hand. */
class FakeSocket implements HeartbeatSocket {
  readyState = 1
  bufferedAmount = 0
  pings = 0
  terminated = false
  private readonly listeners = new Map<string, (() => void)[]>()
  ping(): void {
    this.pings += 1
  }
  terminate(): void {
    this.terminated = true
    this.readyState = 3
  }
  on(event: 'pong' | 'message', listener: () => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    return this
  }
  emit(event: 'pong' | 'message'): void {
    for (const listener of this.listeners.get(event) ?? []) listener()
  }
}

function manualTimers(): HeartbeatTimers & {
  fire(): void
  tick(): void
  cleared: boolean
  deferred: (() => void)[]
} {
  let fn: (() => void) | undefined
  const timers = {
    cleared: false,
    deferred: [] as (() => void)[],
    defer: (f: () => void) => timers.deferred.push(f),
    setInterval: (f: () => void) => {
      fn = f
      return 1
    },
    clearInterval: () => {
      timers.cleared = true
    },
    /** The interval's callback alone: its first slice. */
    fire: () => fn?.(),
    /** One interval: its first slice, then every slice it deferred. */
    tick: () => {
      fn?.()
      while (timers.deferred.length > 0) timers.deferred.shift()!()
    },
  }
  return timers
}

describe('socket heartbeat', () => {
  it('pings every open socket each interval and cuts one that has not answered since the last ping', () => {
    const timers = manualTimers()
    const [pongs, talks, silent, closing] = [1, 2, 3, 4].map(() => new FakeSocket())
    closing!.readyState = 2
    const stop = startSocketHeartbeat(
      { clients: new Set([pongs!, talks!, silent!, closing!]) },
      30_000,
      timers,
    )

    timers.tick()
    expect([pongs!.pings, talks!.pings, silent!.pings, closing!.pings]).toEqual([1, 1, 1, 0])
    pongs!.emit('pong')
    // Any message is a sign of life too (the web client's own heartbeat, a subscribe).
    talks!.emit('message')

    timers.tick()
    expect(silent!.terminated).toBe(true)
    expect([pongs!.terminated, talks!.terminated, closing!.terminated]).toEqual([
      false,
      false,
      false,
    ])
    expect([pongs!.pings, talks!.pings]).toEqual([2, 2])

    // An answer counts for one interval only.
    timers.tick()
    expect(pongs!.terminated).toBe(true)
    expect(talks!.terminated).toBe(true)

    stop()
    expect(timers.cleared).toBe(true)
  })

  it('spares a socket whose send buffer is draining: a slow phone still reading its backlog', () => {
    const timers = manualTimers()
    const [slow, stuck] = [new FakeSocket(), new FakeSocket()]
    startSocketHeartbeat({ clients: new Set([slow, stuck]) }, 30_000, timers)
    slow.bufferedAmount = stuck.bufferedAmount = 400_000
    timers.tick()
    slow.bufferedAmount = 150_000
    timers.tick()
    expect(slow.terminated).toBe(false)
    expect(stuck.terminated).toBe(true)
    // Drained and then silent: cut at the next tick like any other.
    timers.tick()
    expect(slow.terminated).toBe(true)
  })

  it('pings in slices of HEARTBEAT_SLICE sockets, a turn of the event loop each, and stops between', () => {
    const timers = manualTimers()
    const sockets = Array.from({ length: 2 * HEARTBEAT_SLICE + 1 }, () => new FakeSocket())
    const pinged = () => sockets.filter((socket) => socket.pings === 1).length
    const stop = startSocketHeartbeat({ clients: new Set(sockets) }, 30_000, timers)
    timers.fire()
    expect(pinged()).toBe(HEARTBEAT_SLICE)
    timers.deferred.shift()!()
    expect(pinged()).toBe(2 * HEARTBEAT_SLICE)
    stop()
    timers.deferred.shift()!()
    expect(pinged()).toBe(2 * HEARTBEAT_SLICE)
    expect(timers.cleared).toBe(true)
  })

  describe('on the push role', () => {
    let t: TestApp
    let base: string
    const open: PushInbox[] = []

    beforeAll(async () => {
      t = await createTestApp(sqlite!, {
        push: { limits: { pingIntervalMs: 500, maxConnectionsPerIp: 2 } },
      })
      base = await listen(t.app)
    })
    afterAll(async () => {
      for (const { socket } of open) socket.terminate()
      await t.close()
    })

    it('cuts a socket that stopped answering and frees its place; a live one stays', async () => {
      const live = await openPush(base)
      const gone = await openPush(base, { autoPong: false })
      open.push(live, gone)
      await live.waitFor((m) => m.type === 'hello')

      // The address is at its cap of two while the dead peer holds a place (it is cut an interval
      // after its first ping at the earliest, 500 ms after opening).
      await expect(openPush(base)).rejects.toThrow('Unexpected server response: 429')
      expect(await gone.closed(3_000)).toBe(1006)
      // The live socket has answered two pings more by now.
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      expect(live.closeCode).toBeNull()

      const next = await openPush(base)
      open.push(next)
      await next.waitFor((m) => m.type === 'hello')
    })
  })
})
