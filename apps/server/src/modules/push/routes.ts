import { COOKIE } from '@numisma/contracts/cookies'
import { PUSH_CLOSE_POLICY } from '@numisma/contracts/push'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { sendError } from '../../platform/error-handler'
import type { Clock } from '../../platform/clock'
import type { EventBus } from '../../platform/event-bus'
import { ConnectionCounter } from './limits'
import { type OriginRules, originAllowed } from './origin'
import type { PushService } from './service'
import { LogThrottle } from './throttle'

export interface PushOptions {
  service: PushService
  bus: EventBus
  clock: Clock
  maxConnectionsPerIp: number
  /** Who may open a socket besides native clients and pages of the request's own host. */
  origins: OriginRules
  /** Whether `request.ip` comes from X-Forwarded-For (TRUST_PROXY); for a warning when it does not. */
  proxyTrusted: boolean
}

/** `ws` send options: a text message, whether the frame comes as a string or as its UTF-8. */
const TEXT_MESSAGE = { binary: false } as const

/** At most one log line a minute per refused address and reason. */
const REFUSAL_LOG_INTERVAL_MS = 60_000

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
  // Refusals are logged: behind a load balancer without TRUST_PROXY every client shares the
  // balancer's address, and the per-address cap would otherwise refuse the 33rd socket silently.
  const refusals = new LogThrottle(REFUSAL_LOG_INTERVAL_MS, () => opts.clock.now())
  const refused = (request: FastifyRequest, status: 403 | 429, why: string) => {
    const skipped = refusals.take(`${status}:${addressOf(request)}`)
    if (skipped === null) return
    request.log.warn(
      { ip: addressOf(request), origin: request.headers.origin, status, skipped },
      `push: upgrade refused, ${why}`,
    )
  }
  let warnedUntrustedProxy = false

  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        // A plain GET (no upgrade) would get the socket plugin's bare 404: refuse it coded.
        if (!request.ws) return sendError(request, reply, 404, 'NOT_FOUND')
        if (!opts.proxyTrusted && !warnedUntrustedProxy && request.headers['x-forwarded-for']) {
          warnedUntrustedProxy = true
          request.log.warn(
            { ip: request.ip },
            'push: a request came through a proxy (X-Forwarded-For) but TRUST_PROXY is off, so ' +
              'every client behind it shares one address and its socket cap; set TRUST_PROXY',
          )
        }
        if (!originAllowed(request.headers.origin, request.host, opts.origins)) {
          refused(request, 403, 'origin not allowed')
          return sendError(request, reply, 403, 'FORBIDDEN')
        }
        if (!connections.hasRoom(addressOf(request))) {
          refused(request, 429, 'too many sockets from this address')
          return sendError(request, reply, 429, 'RATE_LIMITED')
        }
      },
    },
    (socket, request) => {
      const address = addressOf(request)
      // Two upgrades from one address can pass the check above together; this one counts.
      if (!connections.tryAcquire(address)) {
        refused(request, 429, 'too many sockets from this address')
        socket.close(PUSH_CLOSE_POLICY, 'too many connections')
        return
      }
      // Listeners first, synchronously: a client may subscribe the moment the socket opens.
      const client = service.connect({
        send: (frame) => {
          // Text either way: `ws` would send a Buffer as a binary message (a Blob in a browser).
          if (socket.readyState === socket.OPEN) socket.send(frame, TEXT_MESSAGE)
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
