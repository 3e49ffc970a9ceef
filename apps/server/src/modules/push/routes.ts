import { COOKIE } from '@numisma/contracts/cookies'
import { PUSH_CLOSE_POLICY } from '@numisma/contracts/push'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { sendError } from '../../platform/error-handler'
import type { EventBus } from '../../platform/event-bus'
import { ConnectionCounter } from './limits'
import { originAllowed } from './origin'
import type { PushService } from './service'

export interface PushOptions {
  service: PushService
  bus: EventBus
  maxConnectionsPerIp: number
  /** Origins besides the request's own host whose pages may open a socket (normalised). */
  allowedOrigins: ReadonlySet<string>
}

// `injectWS` hands the route a request without a socket, hence no address.
const addressOf = (request: FastifyRequest): string => request.ip || 'unknown'

/**
 * The push role (`/svc/push/ws`, DESIGN §9): lot updates to subscribers, outbid notices and
 * ending-soon reminders to their user. The same cookies as the page identify the user. A foreign
 * page (`Origin`) and an address over its socket cap are refused before the upgrade, with the
 * catalogue's codes; everything after the upgrade is the service's.
 */
export const pushRoutes: FastifyPluginAsync<PushOptions> = async (app, opts) => {
  const { service } = opts
  const unsubscribe = opts.bus.subscribe((event) => service.deliver(event))
  app.addHook('onClose', () => unsubscribe())
  const connections = new ConnectionCounter(opts.maxConnectionsPerIp)

  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        if (!originAllowed(request.headers.origin, request.host, opts.allowedOrigins)) {
          return sendError(request, reply, 403, 'FORBIDDEN')
        }
        if (!connections.hasRoom(addressOf(request))) {
          return sendError(request, reply, 429, 'RATE_LIMITED')
        }
      },
    },
    (socket, request) => {
      const address = addressOf(request)
      // Two upgrades from one address can pass the check above together; this one counts.
      if (!connections.tryAcquire(address)) {
        socket.close(PUSH_CLOSE_POLICY, 'too many connections')
        return
      }
      // Listeners first, synchronously: a client may subscribe the moment the socket opens.
      const client = service.connect({
        send: (frame) => {
          if (socket.readyState === socket.OPEN) socket.send(frame)
        },
        get bufferedAmount() {
          return socket.bufferedAmount
        },
        close: (code, reason) => socket.close(code, reason),
      })
      socket.on('close', () => {
        service.disconnect(client)
        connections.release(address)
      })
      socket.on('message', (data: Buffer) => {
        service
          .receive(client, data.toString())
          .catch((error: unknown) => request.log.error({ err: error }, 'push: message failed'))
      })
      service
        .identify(client, request.cookies[COOKIE.sid])
        .catch((error: unknown) => request.log.error({ err: error }, 'push: hello failed'))
    },
  )
}
