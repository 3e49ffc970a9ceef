import type { PushServerMessage } from '@numisma/contracts/push'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { sha256Hex } from '../../platform/crypto'
import { DEFAULT_PUSH_LIMITS, type PushLimits } from './limits'
import type { PushLotRow, PushSessionRow } from './repository'
import { type PushConnection, type PushReads, PushService } from './service'

const NOW = Date.UTC(2026, 10, 21, 2, 0, 0)
const MINUTE = 60_000

function buildLotRow(overrides: Partial<PushLotRow> = {}): PushLotRow {
  return {
    id: 1,
    status: 'open',
    starts_at: NOW - MINUTE,
    ends_at: NOW + 60 * MINUTE,
    price: null,
    bid_count: 0,
    leader_id: null,
    reserve_price: null,
    leader_display: null,
    ...overrides,
  }
}

/** Reads from a fixed set of lots and sessions, counting queries; `fail` makes reads reject. */
function fakeReads(lots: PushLotRow[], sessions: Record<string, PushSessionRow> = {}) {
  const reads = {
    lotQueries: [] as number[][],
    fail: false,
    lotsByIds(ids: readonly number[]) {
      reads.lotQueries.push([...ids])
      if (reads.fail) return Promise.reject(new Error('connection lost'))
      return Promise.resolve(lots.filter((lot) => ids.includes(lot.id)))
    },
    sessionBySidHash(hash: string) {
      if (reads.fail) return Promise.reject(new Error('connection lost'))
      return Promise.resolve(sessions[hash])
    },
  } satisfies PushReads & Record<string, unknown>
  return reads
}

/**
 * A socket whose send buffer the test controls: `bufferedAmount` is set directly, and a socket
 * with `reading: false` keeps every frame it is sent in its buffer, as a client that never reads.
 */
function fakeConnection() {
  const connection = {
    sent: [] as PushServerMessage[],
    closedWith: null as number | null,
    bufferedAmount: 0,
    reading: true,
    send(frame: string) {
      connection.sent.push(JSON.parse(frame) as PushServerMessage)
      if (!connection.reading) connection.bufferedAmount += Buffer.byteLength(frame)
    },
    close(code: number) {
      connection.closedWith = code
    },
  } satisfies PushConnection & Record<string, unknown>
  return connection
}

function setUp(lots: PushLotRow[], limits: Partial<PushLimits> = {}) {
  const clock = new FakeClock(NOW)
  const reads = fakeReads(lots)
  const errors: unknown[] = []
  const service = new PushService(
    reads,
    clock,
    { ...DEFAULT_PUSH_LIMITS, ...limits },
    {
      error: (obj: unknown) => errors.push(obj),
      warn: () => undefined,
    },
  )
  return { clock, reads, service, errors }
}

const subscribe = (lotIds: number[]) => JSON.stringify({ type: 'subscribe', lotIds })

describe('PushService', () => {
  it('answers a subscribe of many lots with one read, and the status the catalogue shows', async () => {
    const lots = Array.from({ length: 200 }, (_, i) => buildLotRow({ id: i + 1 }))
    lots[0] = buildLotRow({ id: 1, ends_at: NOW - 1, price: 500, leader_id: 7, bid_count: 1 })
    const { reads, service } = setUp(lots)
    const connection = fakeConnection()
    const client = service.connect(connection)

    await service.receive(client, subscribe(lots.map((l) => l.id)))

    expect(reads.lotQueries).toHaveLength(1)
    expect(connection.sent.filter((m) => m.type === 'lot')).toHaveLength(200)
    // Past its end but not yet swept: the closing rule's outcome, as lotStatus gives it.
    expect(connection.sent.find((m) => m.type === 'lot' && m.lotId === 1)).toMatchObject({
      status: 'sold',
      leader: null,
    })
  })

  it('masks the leader of a running lot as live updates do', async () => {
    const { service } = setUp([buildLotRow({ id: 3, leader_id: 9, leader_display: '藏友8000' })])
    const connection = fakeConnection()
    await service.receive(service.connect(connection), subscribe([3]))
    expect(connection.sent).toEqual([
      {
        type: 'lot',
        lotId: 3,
        price: null,
        bidCount: 0,
        endsAt: new Date(NOW + 60 * MINUTE).toISOString(),
        status: 'live',
        leader: '藏***0',
      },
    ])
  })

  it('reads only the lots a subscribe adds, and merges subscribes that arrive during a read', async () => {
    const lots = Array.from({ length: 6 }, (_, i) => buildLotRow({ id: i + 1 }))
    const { reads, service } = setUp(lots)
    const client = service.connect(fakeConnection())
    await service.receive(client, subscribe([1, 2]))
    await service.receive(client, subscribe([1, 2]))
    expect(reads.lotQueries).toEqual([[1, 2]])

    // Three subscribes in one tick: one read in flight, the next read carries what is left.
    const pending = [
      service.receive(client, subscribe([1, 2, 3])),
      service.receive(client, subscribe([1, 2, 3, 4])),
      service.receive(client, subscribe([5, 6])),
    ]
    await Promise.all(pending)
    expect(reads.lotQueries).toEqual([[1, 2], [3], [5, 6]])
  })

  it('sends a lot update only to its followers, and a subscribe replaces what a socket follows', () => {
    const { service } = setUp([])
    const a = fakeConnection()
    const b = fakeConnection()
    const clientA = service.connect(a)
    service.connect(b)
    const update = {
      type: 'lot' as const,
      lotId: 2,
      price: 100,
      bidCount: 1,
      endsAt: new Date(NOW).toISOString(),
      status: 'live' as const,
      leader: null,
    }
    return service.receive(clientA, subscribe([1, 2])).then(async () => {
      service.deliver(update)
      expect(a.sent).toEqual([update])
      expect(b.sent).toEqual([])
      await service.receive(clientA, subscribe([1]))
      service.deliver(update)
      expect(a.sent).toEqual([update])
    })
  })

  it("sends an outbid notice and a reminder to that user's sockets only, without the user id", async () => {
    const clock = new FakeClock(NOW)
    const reads = fakeReads([], {
      [sha256Hex('sid-7')]: { id: 's_7', user_id: 7, expires_at: NOW + MINUTE, revoked_at: null },
    })
    const service = new PushService(reads, clock, DEFAULT_PUSH_LIMITS)
    const mine = fakeConnection()
    const other = fakeConnection()
    await service.identify(service.connect(mine), 'sid-7')
    await service.identify(service.connect(other), 'sid-unknown')
    expect(mine.sent).toEqual([{ type: 'hello', userId: 7 }])
    expect(other.sent).toEqual([{ type: 'hello', userId: null }])

    service.deliver({ type: 'outbid', userId: 7, lotId: 4, price: 1100 })
    service.deliver({ type: 'reminder', userId: 7, lotId: 4, title: '壹圆', endsAt: 'x' })
    service.deliver({ type: 'reminder', userId: 8, lotId: 4, title: '壹圆', endsAt: 'x' })
    expect(mine.sent.slice(1)).toEqual([
      { type: 'outbid', lotId: 4, price: 1100 },
      { type: 'reminder', lotId: 4, title: '壹圆', endsAt: 'x' },
    ])
    expect(other.sent).toHaveLength(1)
  })

  it("tells a user's sockets that an agent wrote to them, and nobody of their own messages", async () => {
    const clock = new FakeClock(NOW)
    const reads = fakeReads([], {
      [sha256Hex('sid-7')]: { id: 's_7', user_id: 7, expires_at: NOW + MINUTE, revoked_at: null },
      [sha256Hex('sid-8')]: { id: 's_8', user_id: 8, expires_at: NOW + MINUTE, revoked_at: null },
    })
    const service = new PushService(reads, clock, DEFAULT_PUSH_LIMITS)
    const mine = [fakeConnection(), fakeConnection()]
    const other = fakeConnection()
    const anonymous = fakeConnection()
    for (const connection of mine) await service.identify(service.connect(connection), 'sid-7')
    await service.identify(service.connect(other), 'sid-8')
    await service.identify(service.connect(anonymous), undefined)
    const message = (from: 'user' | 'agent', id: number) => ({
      id,
      conversationId: 3,
      from,
      kind: 'text' as const,
      text: '在吗',
      createdAt: new Date(NOW).toISOString(),
    })

    service.deliver({ type: 'chat', userId: 7, conversationId: 3, message: message('user', 1) })
    service.deliver({ type: 'chat', userId: 7, conversationId: 3, message: message('agent', 2) })
    service.deliver({ type: 'chat_read', userId: 7, conversationId: 3, by: 'agent', upTo: 1 })

    // Only that the conversation has news: the text stays on the chat's own sockets.
    for (const connection of mine) {
      expect(connection.sent.slice(1)).toEqual([{ type: 'chat', conversationId: 3 }])
    }
    expect(other.sent).toEqual([{ type: 'hello', userId: 8 }])
    expect(anonymous.sent).toEqual([{ type: 'hello', userId: null }])
  })

  it('treats an expired or revoked session as anonymous', async () => {
    const { service, reads } = setUp([])
    const connection = fakeConnection()
    reads.sessionBySidHash = () =>
      Promise.resolve({ id: 's_7', user_id: 7, expires_at: NOW - 1, revoked_at: null })
    await service.identify(service.connect(connection), 'old')
    reads.sessionBySidHash = () =>
      Promise.resolve({ id: 's_7', user_id: 7, expires_at: NOW + MINUTE, revoked_at: NOW - 1 })
    await service.identify(service.connect(connection), 'revoked')
    expect(connection.sent).toEqual([
      { type: 'hello', userId: null },
      { type: 'hello', userId: null },
    ])
  })

  it('answers a failed read with INTERNAL_ERROR and stays usable (no rejection escapes)', async () => {
    const { reads, service, errors } = setUp([buildLotRow({ id: 1 }), buildLotRow({ id: 2 })])
    const connection = fakeConnection()
    const client = service.connect(connection)
    reads.fail = true
    await expect(service.receive(client, subscribe([1]))).resolves.toBeUndefined()
    await expect(service.identify(client, 'sid')).resolves.toBeUndefined()
    expect(connection.sent).toEqual([
      { type: 'error', code: 'INTERNAL_ERROR' },
      { type: 'hello', userId: null },
    ])
    expect(errors).toHaveLength(2)

    reads.fail = false
    await service.receive(client, subscribe([1, 2]))
    expect(
      connection.sent.filter((m) => m.type === 'lot').map((m) => m.type === 'lot' && m.lotId),
    ).toEqual([2])
  })

  it('refuses bad messages and lists longer than the limit with VALIDATION_FAILED', async () => {
    const { reads, service } = setUp([], { maxLotsPerSocket: 3 })
    const connection = fakeConnection()
    const client = service.connect(connection)
    await service.receive(client, 'not json')
    await service.receive(client, subscribe([1, 2, 3, 4]))
    await service.receive(client, JSON.stringify({ type: 'subscribe', lotIds: ['x'] }))
    expect(connection.sent).toEqual(Array(3).fill({ type: 'error', code: 'VALIDATION_FAILED' }))
    expect(reads.lotQueries).toEqual([])
  })

  it('answers a ping with a pong, leaving what the socket follows as it was', async () => {
    const { reads, service } = setUp([buildLotRow({ id: 1 })])
    const connection = fakeConnection()
    const client = service.connect(connection)
    await service.receive(client, subscribe([1]))
    await service.receive(client, JSON.stringify({ type: 'ping' }))
    expect(connection.sent.map((m) => m.type)).toEqual(['lot', 'pong'])
    expect([...client.lots]).toEqual([1])
    expect(reads.lotQueries).toHaveLength(1)
  })

  it('rate-limits a socket: RATE_LIMITED past its burst, then closed with 1008', async () => {
    const { clock, reads, service } = setUp([buildLotRow({ id: 1 })], {
      messageBurst: 3,
      messagesPerSecond: 1,
      refusalsBeforeClose: 4,
    })
    const connection = fakeConnection()
    const client = service.connect(connection)
    for (let i = 0; i < 3; i++) await service.receive(client, subscribe(i % 2 ? [] : [1]))
    expect(reads.lotQueries).toHaveLength(2)

    await service.receive(client, subscribe([1]))
    expect(connection.sent.at(-1)).toEqual({ type: 'error', code: 'RATE_LIMITED' })
    // The bucket refills with time: one message a second.
    clock.advance(1000)
    await service.receive(client, 'not json')
    expect(connection.sent.at(-1)).toEqual({ type: 'error', code: 'VALIDATION_FAILED' })

    for (let i = 0; i < 3; i++) await service.receive(client, subscribe([1]))
    expect(connection.closedWith).toBeNull()
    await service.receive(client, subscribe([1]))
    expect(connection.closedWith).toBe(1008)
    const sent = connection.sent.length
    await service.receive(client, subscribe([1]))
    expect(connection.sent).toHaveLength(sent)
  })

  it('forgets a socket once it disconnects', async () => {
    const { service } = setUp([])
    const connection = fakeConnection()
    const client = service.connect(connection)
    await service.receive(client, subscribe([1]))
    service.disconnect(client)
    service.deliver({
      type: 'lot',
      lotId: 1,
      price: 1,
      bidCount: 1,
      endsAt: '',
      status: 'live',
      leader: null,
    })
    expect(connection.sent).toEqual([])
    expect(service.connectionCount()).toBe(0)
  })

  it('closes a socket that does not read with 1008 once its send buffer is over the limit', async () => {
    const { service } = setUp([], { maxBufferedBytes: 1000 })
    const idle = fakeConnection()
    const reader = fakeConnection()
    idle.reading = false
    for (const connection of [idle, reader]) {
      await service.receive(service.connect(connection), subscribe([1]))
    }
    const update = (price: number) =>
      service.deliver({
        type: 'lot',
        lotId: 1,
        price,
        bidCount: 1,
        endsAt: new Date(NOW).toISOString(),
        status: 'live',
        leader: null,
      })

    let price = 100
    while (idle.bufferedAmount <= 1000) update((price += 10))
    expect(idle.closedWith).toBe(1008)
    const sentBeforeClose = idle.sent.length
    update(price + 10)
    expect(idle.sent).toHaveLength(sentBeforeClose)
    // The socket that reads keeps everything coming.
    expect(reader.closedWith).toBeNull()
    expect(reader.sent).toHaveLength(sentBeforeClose + 1)
  })

  it('reads no snapshot for a socket that is backed up, and closes it instead', async () => {
    const { reads, service } = setUp([buildLotRow({ id: 1 })], { maxBufferedBytes: 1000 })
    const connection = fakeConnection()
    const client = service.connect(connection)
    connection.bufferedAmount = 1001
    await service.receive(client, subscribe([1]))
    expect(reads.lotQueries).toEqual([])
    expect(connection.closedWith).toBe(1008)
    expect(connection.sent).toEqual([])
  })

  it('drops a snapshot read for a socket that backed up while the read ran', async () => {
    const { reads, service } = setUp([buildLotRow({ id: 1 })], { maxBufferedBytes: 1000 })
    const connection = fakeConnection()
    const client = service.connect(connection)
    const lotsByIds = reads.lotsByIds.bind(reads)
    reads.lotsByIds = (ids) => {
      connection.bufferedAmount = 5000
      return lotsByIds(ids)
    }
    await service.receive(client, subscribe([1]))
    expect(reads.lotQueries).toEqual([[1]])
    expect(connection.closedWith).toBe(1008)
    expect(connection.sent).toEqual([])
  })
})
