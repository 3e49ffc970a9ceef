import type { PushLot } from '@numisma/contracts/push'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../src/platform/clock'
import { DEFAULT_PUSH_LIMITS } from '../src/modules/push/limits'
import { type Frame, type PushConnection, PushService } from '../src/modules/push/service'
import { createTestApp, type TestApp } from './helpers/app'
import { createLot } from './helpers/auction'
import { testDatabases } from './helpers/databases'
import { listen, openPush, type PushInbox } from './helpers/push-client'

/** What a socket was sent, as the `ws` client gives it: the bytes, and whether the frame was binary. */
interface RawFrame {
  bytes: Buffer
  binary: boolean
}

function recordFrames(push: PushInbox): RawFrame[] {
  const frames: RawFrame[] = []
  push.socket.on('message', (data: Buffer, binary: boolean) => {
    frames.push({ bytes: Buffer.from(data), binary })
  })
  return frames
}

const lotUpdate = (lotId: number, price: number, leader: string | null = null): PushLot => ({
  type: 'lot',
  lotId,
  price,
  bidCount: 1,
  endsAt: new Date(Date.now() + 3_600_000).toISOString(),
  status: 'live',
  leader,
})

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** ADR 034: one lot update to many sockets costs the write per socket, and nothing more. */
describe('push fan-out: one encoding per event', () => {
  it("hands every follower the same bytes: the event's JSON, encoded once", async () => {
    const service = new PushService(
      {
        lotsByIds: () => Promise.resolve([]),
        sessionBySidHash: () => Promise.resolve(undefined),
      },
      new FakeClock(Date.now()),
      DEFAULT_PUSH_LIMITS,
    )
    const sent: Frame[][] = []
    for (let i = 0; i < 3; i++) {
      const frames: Frame[] = []
      sent.push(frames)
      const connection: PushConnection = {
        send: (frame) => frames.push(frame),
        bufferedAmount: 0,
        close: () => undefined,
      }
      await service.receive(
        service.connect(connection),
        JSON.stringify({ type: 'subscribe', lotIds: [7] }),
      )
    }
    const update = lotUpdate(7, 12_300)
    service.deliver(update)
    const [first] = sent[0]!
    expect(Buffer.isBuffer(first)).toBe(true)
    expect(JSON.parse(String(first))).toEqual(update)
    for (const frames of sent) expect(frames).toEqual([first])
    // The very same buffer: nothing was serialised or encoded per socket.
    for (const frames of sent) expect(frames[0]).toBe(first)
  })
})

describe.each(await testDatabases())('push fan-out over real sockets ($name)', (kind) => {
  let t: TestApp
  let base: string
  const open: PushInbox[] = []
  /** Sockets from distinct client addresses (through the trusted proxy), each under its cap. */
  const connect = async (i: number) => {
    const push = await openPush(base, {
      headers: { 'x-forwarded-for': `10.1.${Math.floor(i / 20)}.${i % 20}` },
    })
    open.push(push)
    return push
  }
  const follow = async (push: PushInbox, lotId: number) => {
    push.socket.send(JSON.stringify({ type: 'subscribe', lotIds: [lotId] }))
    await push.waitFor((m) => m.type === 'lot' && m.lotId === lotId)
  }

  beforeAll(async () => {
    t = await createTestApp(kind, {
      trustProxy: 1,
      push: { limits: { maxBufferedBytes: 64 * 1024 } },
    })
    base = await listen(t.app)
  })
  afterAll(async () => {
    for (const { socket } of open) socket.terminate()
    await t.close()
  })

  it('sends every watcher of a lot the same bytes, once, as a text message', async () => {
    const lotId = await createLot(t)
    const watchers = await Promise.all(Array.from({ length: 100 }, (_, i) => connect(i)))
    await Promise.all(watchers.map((push) => follow(push, lotId)))
    const frames = watchers.map(recordFrames)

    const update = lotUpdate(lotId, 45_600, '张**')
    t.app.bus.publish(update)
    await until(() => frames.every((f) => f.length >= 1))
    // Anything else would have arrived by now, behind the update on the same socket.
    await new Promise((r) => setTimeout(r, 50))

    const expected = Buffer.from(JSON.stringify(update))
    for (const received of frames) {
      expect(received).toHaveLength(1)
      // A binary frame would reach a browser as a Blob, which the web client does not read.
      expect(received[0]!.binary).toBe(false)
      expect(received[0]!.bytes.equals(expected)).toBe(true)
    }
  })

  it('closes a watcher that does not read, without holding up one that does', async () => {
    const lotId = await createLot(t)
    const reader = await connect(200)
    const stalled = await connect(201)
    await follow(reader, lotId)
    await follow(stalled, lotId)
    const readerFrames = recordFrames(reader)
    // The client stops reading its socket: the kernel's buffers fill, then the server's.
    stalled.socket.pause()

    // 4 KB updates, 16 MB in all: well past what loopback's buffers (≤ 4 MB to send) absorb.
    const leader = 'x'.repeat(4096)
    const updates = 4000
    for (let i = 1; i <= updates; i++) {
      t.app.bus.publish(lotUpdate(lotId, i, leader))
      // The reader reads as a client on a good network would, between bids.
      if (i % 100 === 0) await new Promise((r) => setImmediate(r))
    }
    await until(() => readerFrames.length >= updates)
    const prices = readerFrames.map((f) => (JSON.parse(String(f.bytes)) as PushLot).price)
    expect(prices).toEqual(Array.from({ length: updates }, (_, i) => i + 1))
    expect(reader.closeCode).toBeNull()

    // Once it reads again, the stalled client finds what was queued before the limit, then 1008.
    stalled.socket.resume()
    expect(await stalled.closed(10_000)).toBe(1008)
    const stalledLots = stalled.messages.filter((m) => m.type === 'lot' && m.lotId === lotId)
    expect(stalledLots.length).toBeLessThan(updates)
  })
})
