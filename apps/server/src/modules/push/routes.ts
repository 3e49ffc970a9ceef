import { COOKIE } from '@numisma/contracts/cookies'
import { PushSubscribeSchema } from '@numisma/contracts/push'
import type { FastifyPluginAsync } from 'fastify'
import type { Clock } from '../../platform/clock'
import { sha256Hex } from '../../platform/crypto'
import type { EventBus, PushEvent } from '../../platform/event-bus'
import { toLotCard } from '../catalog/mappers'
import type { CatalogRepository } from '../catalog/repository'
import type { PassportRepository } from '../passport/repository'

export interface PushOptions {
  bus: EventBus
  catalog: CatalogRepository
  sessions: PassportRepository
  clock: Clock
}

/** The socket @fastify/websocket hands a route (the `ws` library's WebSocket). */
interface PushSocket {
  readonly readyState: number
  readonly OPEN: number
  send(data: string): void
  on(event: 'close', listener: () => void): void
  on(event: 'message', listener: (data: Buffer) => void): void
}

interface Client {
  socket: PushSocket
  userId: number | null
  lots: Set<number>
}

const MAX_LOTS = 200

/**
 * The push role (`/svc/push/ws`, DESIGN §9): lot updates to subscribers and outbid notices to the
 * user who lost the lead. The same cookies as the page identify the user; on (re)subscribe the
 * client gets each lot's current state, so a reconnect resumes without a gap.
 */
export const pushRoutes: FastifyPluginAsync<PushOptions> = async (app, opts) => {
  const clients = new Set<Client>()
  const send = (client: Client, message: unknown) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message))
  }

  const unsubscribe = opts.bus.subscribe((event: PushEvent) => {
    for (const client of clients) {
      if (event.type === 'lot' && client.lots.has(event.lotId)) send(client, event)
      if (event.type === 'outbid' && client.userId === event.userId) {
        send(client, { type: 'outbid', lotId: event.lotId, price: event.price })
      }
    }
  })
  app.addHook('onClose', () => unsubscribe())

  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
    // Listeners first, synchronously: a client may subscribe the moment the socket opens.
    const client: Client = { socket, userId: null, lots: new Set() }
    clients.add(client)
    socket.on('close', () => clients.delete(client))
    socket.on('message', (raw: Buffer) => {
      let parsed: unknown
      try {
        parsed = JSON.parse(raw.toString())
      } catch {
        send(client, { type: 'error', code: 'VALIDATION_FAILED' })
        return
      }
      const message = PushSubscribeSchema.safeParse(parsed)
      if (!message.success) {
        send(client, { type: 'error', code: 'VALIDATION_FAILED' })
        return
      }
      client.lots = new Set(message.data.lotIds.slice(0, MAX_LOTS))
      void snapshot(client, [...client.lots])
    })
    const sid = request.cookies[COOKIE.sid]
    void (sid ? opts.sessions.findSessionBySidHash(sha256Hex(sid)) : Promise.resolve(undefined))
      .then((session) => {
        const valid = session && session.revokedAt === null && session.expiresAt > opts.clock.now()
        client.userId = valid ? session.userId : null
        send(client, { type: 'hello', userId: client.userId })
      })
      .catch((error: unknown) => request.log.error({ err: error }, 'push: session lookup failed'))
  })

  async function snapshot(client: Client, lotIds: number[]) {
    const now = opts.clock.now()
    for (const lotId of lotIds) {
      const row = await opts.catalog.findLot(lotId)
      if (!row) continue
      const card = toLotCard(row, now)
      send(client, {
        type: 'lot',
        lotId,
        price: card.price,
        bidCount: card.bidCount,
        endsAt: card.endsAt,
        status: card.status,
        leader: null,
      })
    }
  }
}
