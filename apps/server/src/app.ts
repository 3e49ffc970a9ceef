import { randomBytes } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import fastifyRateLimit from '@fastify/rate-limit'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import fastifyWebsocket from '@fastify/websocket'
import { COOKIE } from '@numisma/contracts/cookies'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { Argon2PayPasswordHasher, payPasswordPepper } from './modules/account/pay-password-hasher'
import { PayPasswordVerifier } from './modules/account/pay-password-verifier'
import { AccountRepository } from './modules/account/repository'
import { accountRoutes } from './modules/account/routes'
import { AccountService } from './modules/account/service'
import { BiddingReads } from './modules/bidding/reads-repository'
import { ordersBookedAtCounter } from './modules/bookings/booked-orders'
import { BookingExpiry } from './modules/bookings/expiry'
import { BookingsRepository } from './modules/bookings/repository'
import { bookingRoutes } from './modules/bookings/routes'
import { BookingService } from './modules/bookings/service'
import { BiddingRepository } from './modules/bidding/repository'
import { biddingRoutes } from './modules/bidding/routes'
import { BiddingService } from './modules/bidding/service'
import { WatchRepository } from './modules/bidding/watch-repository'
import { ListingRepository } from './modules/catalog/listing-repository'
import { catalogSettingsArea } from './modules/catalog/settings-area'
import { catalogueCards } from './modules/chat/cards'
import { ChatHub, type ChatSocketLimits, DEFAULT_CHAT_SOCKET_LIMITS } from './modules/chat/hub'
import { ChatRepository } from './modules/chat/repository'
import { chatRoutes, chatSocketRoutes, chatStaffRoutes } from './modules/chat/routes'
import { chatImages } from './modules/chat/images'
import { ChatService, type ChatLimits, DEFAULT_CHAT_LIMITS } from './modules/chat/service'
import { ListingService } from './modules/catalog/listing-service'
import { CatalogRepository } from './modules/catalog/repository'
import {
  ordersAwaitingRemittance,
  ordersNamedByRemittance,
} from './modules/finance/awaiting-remittance'
import { sharpReceipts } from './modules/finance/receipt'
import { BankingRepository } from './modules/finance/repository'
import { bankingRoutes } from './modules/finance/routes'
import { type BankingDeps, BankingService } from './modules/finance/service'
import { moneyDeskFor } from './modules/finance/staff-money-desk'
import { moneyDeskRoutes } from './modules/finance/staff-money-routes'
import { FinanceService } from './modules/ledger/finance-service'
import { financeRoutes } from './modules/ledger/routes'
import { LedgerService } from './modules/ledger/service'
import { MallReads } from './modules/mall/reads-repository'
import { mallRoutes } from './modules/mall/routes'
import { MallService } from './modules/mall/service'
import { MallWatchRepository } from './modules/mall/watch-repository'
import { DEFAULT_PUSH_LIMITS, type PushLimits } from './modules/push/limits'
import { parseOrigins, SHOP_WEB_ORIGINS } from './modules/push/origin'
import { PushRepository } from './modules/push/repository'
import { pushRoutes } from './modules/push/routes'
import { PushService } from './modules/push/service'
import { catalogRoutes } from './modules/catalog/routes'
import { CatalogService } from './modules/catalog/service'
import { MEDIA_PREFIX, mediaRoutes } from './modules/media/routes'
import { photoRoutes, photoStaffRoutes } from './modules/media/photos-routes'
import { PhotoService } from './modules/media/photos-service'
import { staffCatalogueRoutes } from './modules/catalog/staff-catalogue-routes'
import { StaffCatalogueService } from './modules/catalog/staff-catalogue-service'
import { NoticesRepository } from './modules/notices/repository'
import { noticesRoutes } from './modules/notices/routes'
import { NoticesService } from './modules/notices/service'
import { noticeWriterFor } from './modules/notices/writer'
import { couponHoldsFor } from './modules/coupons/holds'
import { CouponRepository } from './modules/coupons/repository'
import { couponRoutes } from './modules/coupons/routes'
import { CouponService } from './modules/coupons/service'
import { packagedRegions } from './modules/address/regions'
import { AddressRepository } from './modules/address/repository'
import { addressRoutes } from './modules/address/routes'
import { AddressService } from './modules/address/service'
import { DeliveryRepository } from './modules/delivery/repository'
import { deliveryRoutes } from './modules/delivery/routes'
import { DeliveryService } from './modules/delivery/service'
import * as slotCounts from './modules/delivery/slot-counts'
import { FulfilmentRepository } from './modules/delivery/staff-fulfilment-repository'
import { fulfilmentStaffRoutes } from './modules/delivery/staff-fulfilment-routes'
import { FulfilmentService } from './modules/delivery/staff-fulfilment-service'
import { MallOrderService } from './modules/orders/mall-order-service'
import { MallOrderExpiry } from './modules/orders/expiry'
import { OrderGroups } from './modules/orders/order-groups'
import { ForfeitService, OverdueJob } from './modules/orders/overdue'
import { OverdueRepository } from './modules/orders/overdue-repository'
import { OrderReads } from './modules/orders/reads-repository'
import { OrdersRepository } from './modules/orders/repository'
import { orderRoutes } from './modules/orders/routes'
import { orderPaymentsFor } from './modules/orders/order-payments'
import { PayNotices } from './modules/payments/notices'
import { notifyRoutes } from './modules/payments/notify-routes'
import { ordersWithOpenWechatPayment } from './modules/payments/open-payments'
import { RechargeService } from './modules/payments/recharge-service'
import { PaymentsRepository } from './modules/payments/repository'
import { paymentRoutes } from './modules/payments/routes'
import { PaymentService } from './modules/payments/service'
import {
  listeningOrigin,
  wechatPayClient,
  type WechatPayTransport,
  WXPAY_SANDBOX_PREFIX,
} from './modules/payments/wechat-pay'
import { wxpaySandboxRoutes } from './modules/sandbox/routes'
import { mpSandboxRoutes } from './modules/sandbox/mp-routes'
import { MP_SANDBOX_ACCOUNT_NAME, MpSandbox } from './modules/sandbox/mp-sandbox'
import {
  authorizePageUrl,
  wechatMpClient,
  type WechatMpTransport,
  WX_SANDBOX_PREFIX,
} from './modules/wechat/mp-client'
import { WechatRepository } from './modules/wechat/repository'
import { wechatRoutes } from './modules/wechat/routes'
import { payerOpenid, WechatService } from './modules/wechat/service'
import { SharedPlatformTokens, type SharedTokensOptions } from './modules/wechat/shared-tokens'
import { httpDelivery, type NoticeDelivery, WxPaySandbox } from './modules/sandbox/wxpay-sandbox'
import {
  SANDBOX_SMS_ACCOUNT,
  type SmsSettings,
  smsSettings,
  smsSettingsProblem,
  type WechatMpSettings,
  wechatMpSettings,
  type WechatPaySettings,
  wechatPaySettings,
} from './platform/config'
import { passportRoutes } from './modules/passport/routes'
import { salesStaffRoutes } from './modules/sales/routes'
import { SalesRepository } from './modules/sales/repository'
import { SalesService } from './modules/sales/service'
import { searchRoutes } from './modules/search/routes'
import { SearchService } from './modules/search/service'
import { PassportRepository } from './modules/passport/repository'
import { PassportService } from './modules/passport/service'
import { SessionCache, sessionRevocations } from './modules/passport/session-cache'
import {
  AliyunSmsSender,
  httpSmsTransport,
  SandboxSmsSender,
  type SmsSender,
  type SmsTransport,
  UnconfiguredSmsSender,
} from './modules/passport/sms-sender'
import { SMS_SANDBOX_PREFIX, SmsSandbox } from './modules/sandbox/sms-sandbox'
import { smsSandboxRoutes } from './modules/sandbox/sms-routes'
import { CounterService } from './modules/staff/counter-service'
import type { StaffRouteEntry } from './modules/staff/access'
import { staffRoutes } from './modules/staff/routes'
import { StaffService } from './modules/staff/service'
import { systemRoutes } from './modules/system/routes'
import { UserRepository } from './modules/user/repository'
import { userRoutes } from './modules/user/routes'
import { UserService } from './modules/user/service'
import { DEFAULT_QUOTA_MULTIPLIER } from '@numisma/domain/quota'
import { DEFAULT_CHAT_AGENT_ID } from '@numisma/contracts/chat'
import type { Clock } from './platform/clock'
import type { Database } from './platform/db'
import { registerCompression } from './platform/compression' // compression (issue 13)
import { registerSecurityHeaders } from './platform/security-headers' // security headers (issue 15)
import { installErrorHandler, sendError } from './platform/error-handler'
import { isAppError } from './platform/errors'
import {
  clientErrorHandler,
  DEFAULT_HTTP_TIMEOUTS,
  type HttpTimeouts,
} from './platform/client-errors'
import { guardPictureHosts } from './platform/image-hosts'
import { type EventBus, InProcessEventBus } from './platform/event-bus'
import { ReadCacheBus } from './platform/read-cache'
import { IdempotencyStore } from './platform/idempotency'
import { type NonceStore, openNonceStore } from './platform/nonce-store'
import { clientConfig, loadPublicApps } from './platform/public-apps'
import { type SigningDeps, signedRequestHook } from './platform/request-signing'
import { SettingsRepository } from './platform/settings-repository'
import { transactor } from './platform/transactions'
import { serveWebApp } from './platform/web-app'
import { startSocketHeartbeat } from './platform/socket-heartbeat'
import { rateLimitPrefixFor, sharedRateLimitStore } from './platform/rate-limit-store'
import { databaseProbe, Readiness, type ReadinessProbe, readyRoutes } from './platform/readiness'
import { ROLES, type Role } from './platform/roles'
import { closeSocketsForRestart } from './platform/shutdown'
import { Redis } from 'ioredis'

export interface AppOptions {
  database: Database
  clock: Clock
  /** Unset: the sender `smsProvider` names (ADR 028). */
  sms?: SmsSender
  /**
   * SMS_* (platform/config.ts; unset: the sandbox sender outside production, none in it).
   * `transport` is how the provider's sender reaches it — fetch by default, `inject` in tests.
   */
  smsProvider?: Partial<SmsSettings> & { transport?: SmsTransport }
  /** The provider sandbox mounted at /svc/sandbox/sms; tests pass one to read its outbox. */
  smsSandbox?: SmsSandbox
  env: 'development' | 'production'
  webDist: string
  logger?: FastifyServerOptions['logger']
  /** Per-window limits; tests raise them, production keeps the defaults (any one may be given). */
  rateLimit?: Partial<{
    sms: number
    smsPerCaller: number
    login: number
    staffLogin: number
    /** `POST /user/finance/@remittance` per user in an hour (default 30). */
    remittance?: number
    /** `POST /user/@setPayPass` per user in 15 minutes (default 10). */
    payPassword?: number
  }>
  /**
   * Keys the payment password hashes (PAY_PASSWORD_PEPPER; server.ts refuses production without
   * it). Unset: a random one made once and kept in the settings table.
   */
  payPasswordPepper?: string
  /**
   * The messaging platform's pay (platform/config.ts; unset: the sandbox merchant outside
   * production). `transport` is how our client reaches the platform and `noticeDelivery` how the
   * sandbox reaches the notify URL — over HTTP by default, through `inject` in tests.
   */
  wechatPay?: Partial<WechatPaySettings> & {
    transport?: WechatPayTransport
    noticeDelivery?: NoticeDelivery
    /** When the sandbox posts an unacknowledged notice again (default: 15 s, 15 s, 30 s, …). */
    sandboxRetryDelaysMs?: number[]
  }
  /**
   * The messaging platform's official account (platform/config.ts; unset: the sandbox's outside
   * production): sign-in inside its app and the JS-SDK share signature. `transport` is how our
   * client reaches its API — over HTTP by default, through `inject` in tests; `tokens` tunes how
   * an instance waits for another's token refresh.
   */
  wechatMp?: Partial<WechatMpSettings> & {
    transport?: WechatMpTransport
    tokens?: SharedTokensOptions
  }
  /** Tests may inject one; otherwise Redis (redisUrl), else the database's (ADR 029). */
  nonces?: NonceStore
  /** REDIS_URL: nonces shared by every instance, kept by Redis for their 11 minutes. */
  redisUrl?: string | undefined
  /**
   * The deployment's tag (platform/deployment-tag.ts, server.ts passes it): the rate-limit and
   * nonce keys in a Redis other shops may share are this deployment's own, like its lease keys
   * and push channel. Unset (tests): the untagged keys.
   */
  deployment?: string
  /**
   * The services this instance registers (ROLES, ADR 032; default all three). /svc/health,
   * /svc/ready and /svc/client-config are on every instance.
   */
  roles?: readonly Role[]
  /** A hop count or proxy addresses (TRUST_PROXY); `true` is refused (ADR 028). */
  trustProxy?: false | number | string
  /** In-process by default; production passes the Redis-backed bus. */
  bus?: EventBus
  /** IMAGE_URL_HOSTS: hosts whose https pictures staff may use besides our own media (none). */
  imageHosts?: readonly string[]
  /** How long a slow client may hold a connection (platform/client-errors.ts); tests lower them. */
  httpTimeouts?: Partial<HttpTimeouts>
  /** Deposit × this = bidding quota (DESIGN §4); server.ts passes QUOTA_MULTIPLIER from config. */
  quotaMultiplier?: number
  /**
   * Demo only (SEED=demo outside production): a deposit credited to each new account so a visitor
   * can bid at once (DESIGN §8). Recorded in the ledger like any operator deposit.
   */
  demoDeposit?: number
  /**
   * The push role: limits per socket and address (tests lower them), and origins besides the
   * shop's own whose pages may open a socket (PUSH_ALLOWED_ORIGINS).
   */
  push?: { limits?: Partial<PushLimits>; allowedOrigins?: readonly string[] }
  /**
   * The customer-service chat: its agent (CHAT_AGENT_ID; default DEFAULT_CHAT_AGENT_ID) and the
   * limits tests lower.
   */
  chat?: {
    agentId?: string
    limits?: Partial<ChatLimits>
    socketLimits?: Partial<ChatSocketLimits>
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    bus: EventBus
    /** The operator routes behind the staff guard and who may call each (ADR 021). */
    staffRouteTable: readonly StaffRouteEntry[]
    /** What /svc/ready answers; server.ts turns it off first thing on SIGTERM (ADR 032). */
    readiness: Readiness
  }
}

/**
 * The overdue winners' job (DESIGN §4) with what other modules provide: which orders a remittance
 * notice waiting for staff names (finance), and stopping a user's proxies (bidding's repository).
 * server.ts starts it; tests sweep with it.
 */
export function overdueJobFor(
  database: Database,
  clock: Clock,
  options: { log?: FastifyBaseLogger } = {},
): OverdueJob {
  const lots = new BiddingRepository(database.db, database.dialect)
  return OverdueJob.forDatabase(database, clock, {
    awaitingRemittance: ordersAwaitingRemittance,
    stopProxies: (tx, userIds, now) => lots.stopProxiesOf(tx, userIds, now),
    bookedAtCounter: ordersBookedAtCounter,
    ...options,
  })
}

/**
 * Ends counter cash bookings whose day is over, giving their places back to the counter's slot
 * counts (modules/delivery, shared with self-pickups). server.ts starts it; tests sweep with it.
 */
export function bookingExpiryFor(
  database: Database,
  clock: Clock,
  options: { log?: FastifyBaseLogger } = {},
): BookingExpiry {
  return BookingExpiry.forDatabase(
    database,
    clock,
    { release: (tx, date, slot) => slotCounts.releaseSlotPlace(tx, date, slot) },
    options,
  )
}

/**
 * The 30-minute mall-order expiry (DESIGN §5) with what other modules provide. server.ts starts
 * it; tests sweep with it.
 */
export function mallOrderExpiryFor(
  database: Database,
  clock: Clock,
  options: { log?: FastifyBaseLogger } = {},
): MallOrderExpiry {
  return MallOrderExpiry.forDatabase(database, clock, couponHoldsFor(database), {
    // A remittance order past its hold stays while a notice waiting for staff names it.
    awaiting: ordersAwaitingRemittance,
    bookedAtCounter: ordersBookedAtCounter,
    ...options,
  })
}

export const MAIN_PREFIX = '/svc/main'
export const SEARCH_PREFIX = '/svc/search'

/** The nonce store the app opens itself (none injected), closed with the app. */
async function ownNonceStore(app: FastifyInstance, options: AppOptions): Promise<NonceStore> {
  const store = await openNonceStore({ ...options, log: app.log })
  app.addHook('onClose', async () => store.close?.())
  return store
}

// Fastify's overloads want one member of the union at a time. `true` would take the client's own
// leftmost X-Forwarded-For entry as its address (ADR 028), so it is refused here too. A hop count
// is given as a function: Fastify takes a bare number as "trust nothing", which would put every
// client behind the proxy on the proxy's address, one rate limit for all. `n` trusts the peer and
// the n − 1 entries it and the proxies before it appended; the address they name is the client.
function trustProxy(value: AppOptions['trustProxy']): boolean {
  if ((value as unknown) === true)
    throw new Error('trustProxy: give a hop count or proxy addresses')
  if (typeof value === 'number') {
    const hops = value
    return ((_address: string, hop: number) => hop < hops) as unknown as boolean
  }
  return (value ?? false) as boolean
}

/**
 * REDIS_URL: the rate limits' own client (ADR 032), also what /svc/ready pings. Bounded like the
 * nonce store's (no offline queue, 1 s timeouts), so while Redis is away a count fails at once and
 * the limit is counted by this instance instead; the outage is logged once, and its end.
 */
function ownRateLimitRedis(app: FastifyInstance, url: string, deployment?: string) {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
  })
  let down = false
  const markDown = (error: unknown) => {
    if (down) return
    down = true
    app.log.warn(
      { err: error },
      'Redis unreachable: rate limits counted per instance until it answers',
    )
  }
  const markUp = () => {
    if (!down) return
    down = false
    app.log.info('Redis reachable again: rate limits shared by every instance')
  }
  redis.on('error', markDown)
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect())
  })
  return {
    redis,
    store: sharedRateLimitStore({
      redis,
      onRedisError: markDown,
      onRedisAnswer: markUp,
      // Share pictures' renderings cost this instance's CPU: limited per instance (media/routes).
      perInstance: (key) => key.startsWith('share-png:'),
      ...(deployment && { prefix: rateLimitPrefixFor(deployment) }),
    }),
  }
}

/** The SMS sender the settings name (ADR 028); the sandbox's outbox when it is the sandbox. */
function smsSenderFor(app: FastifyInstance, options: AppOptions, clock: Clock): SmsSender {
  if (options.sms) return options.sms
  const settings = { ...smsSettings(options.env), ...options.smsProvider }
  if (settings.provider === 'sandbox') return new SandboxSmsSender(app.log)
  if (settings.provider === undefined) return new UnconfiguredSmsSender()
  const problem = smsSettingsProblem(settings)
  if (problem) throw new Error(problem)
  return new AliyunSmsSender(
    {
      accessKeyId: settings.accessKeyId!,
      accessKeySecret: settings.accessKeySecret!,
      signName: settings.signName!,
      templateCode: settings.templateCode!,
      endpoint: settings.endpoint,
    },
    clock,
    settings.transport ?? httpSmsTransport(),
    app.log,
  )
}

/**
 * Draining (SIGTERM, ADR 032). From the signal on every answer says `Connection: close`, so a
 * proxy's keep-alive pool (nginx's upstream keepalive) drops each connection it uses rather than
 * pool it again; the connections it keeps idle it drops itself, after its own keep-alive timeout,
 * which is shorter than SHUTDOWN_DRAIN_MS. So when the listener closes there is no pooled
 * connection left for the instance to close under a request the proxy is just sending (reset
 * unanswered: a 502, even for a POST). A request that still arrives once the app is closing, on
 * a connection accepted just before the listener closed (Node closes a connection as idle only
 * once it has had a request), is served like any other: Fastify's onClose hooks, which close the
 * nonce store and Redis, run only once the last connection has closed. A 503 there would reach
 * the client, since nginx passes on any answer it got, and never sends a POST on to another
 * instance once it has sent it. Added before any route, so every route has both hooks.
 */
function drainConnections(app: FastifyInstance, draining: () => boolean): void {
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  app.addHook('onSend', async (_request, reply) => {
    if (closing || draining()) void reply.header('connection', 'close')
  })
}

/**
 * Plugin order is the architecture: external plugins, then platform concerns (errors, signing),
 * then the modules' routes, then the web app.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database, clock } = options
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.httpTimeouts }
  const app = Fastify({
    logger: options.logger ?? false,
    // Slow clients and what Node's HTTP parser refuses (issue 15): cut off, answered `{code, message}`.
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      // Node refuses a headers timeout longer than the request's.
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    clientErrorHandler,
    trustProxy: trustProxy(options.trustProxy),
    bodyLimit: 256 * 1024,
    // Malformed URLs and over-long path parameters get the same coded body as everything else.
    frameworkErrors: (error, request, reply) => {
      void sendError(request, reply, error.statusCode === 414 ? 414 : 400, 'VALIDATION_FAILED', {
        reason: error.code,
      })
    },
    // Generated picture URLs carry their parameters (modules/media), a few hundred characters.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
    // A request that reaches a closing app is still served (drainConnections).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  drainConnections(app, () => readiness.draining)

  // 1. External plugins.
  // compression (issue 13): first, so it hooks every route added after it.
  await registerCompression(app)
  await registerSecurityHeaders(app, options) // security headers (issue 15)
  await app.register(fastifyCookie)
  const roles = new Set(options.roles ?? ROLES)
  const limitsRedis = options.redisUrl
    ? ownRateLimitRedis(app, options.redisUrl, options.deployment)
    : undefined
  await app.register(fastifyRateLimit, {
    global: false,
    // With Redis, route limits hold across every instance (ADR 032); without it, per instance.
    ...(limitsRedis && { store: limitsRedis.store }),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      retryAfterSeconds: Math.ceil(context.ttl / 1000),
    }),
  })
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Numisma API',
        version: '2.0.0',
        description:
          'Every call of the storefront. Calls under /svc/main and /svc/search are signed (ZHAO HMAC, X-Sign, nonce, timestamp); see docs/decisions/003-signing-and-sessions.md.',
      },
    },
    transform: jsonSchemaTransform,
  })
  // The API description lists every staff route (issue 15). In production it is served under the
  // staff cookie's path, to a signed-in staff member only; elsewhere it stays open (ADR 021).
  const docsForStaffOnly = options.env === 'production'
  const docsStaff = StaffService.forDatabase(database, clock)
  if (roles.has('main'))
    await app.register(fastifySwaggerUi, {
      routePrefix: docsForStaffOnly ? `${MAIN_PREFIX}/admin/docs` : '/svc/docs',
      ...(docsForStaffOnly && {
        uiHooks: {
          // Answered here, not thrown: this plugin comes before the error handler is installed.
          onRequest: (request, reply, done) => {
            docsStaff.sessionOf(request.cookies[COOKIE.staffSid]).then(
              () => done(),
              (error: unknown) => {
                if (!isAppError(error)) return done(error as Error)
                void sendError(request, reply, error.statusCode, error.code, error.details)
              },
            )
          },
        },
      }),
    })
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 16 * 1024 },
    // At shutdown sockets are told to come back, each after its own wait (ADR 032).
    preClose: closeSocketsForRestart(),
  })

  // 2. Platform.
  installErrorHandler(app)
  guardPictureHosts(app, `${MAIN_PREFIX}/admin`, options.imageHosts ?? [])
  app.decorateRequest('caller', null)
  const settings = new SettingsRepository(database.db)
  const apps = await loadPublicApps(settings)
  // The messaging platform's official account (DESIGN §7, ADR 017): the real one when configured,
  // else the sandbox this server mounts, reached on its own port.
  const wechatMp = { ...wechatMpSettings(options.env), ...options.wechatMp }
  const mp = wechatMpClient(wechatMp, () => listeningOrigin(app.server))
  const wechatRepo = new WechatRepository(database.db)
  const config = clientConfig(apps, options.env, {
    wechat: mp && { appId: mp.appId, authorizeUrl: authorizePageUrl(wechatMp) },
    chat: { agentId: options.chat?.agentId ?? DEFAULT_CHAT_AGENT_ID },
  })
  const passportRepo = new PassportRepository(database.db)
  // A signed-in call reads its session from memory, not with a query each (ADR 035).
  const sessions = new SessionCache({ clock, find: (id) => passportRepo.findSession(id) })
  const signing: SigningDeps = {
    apps,
    clock,
    nonces: options.nonces ?? (await ownNonceStore(app, options)),
    findSession: (id) => sessions.find(id),
  }
  const limits = {
    sms: 5,
    smsPerCaller: 30,
    login: 20,
    staffLogin: 10,
    payPassword: 10,
    ...options.rateLimit,
  }
  const catalogRepo = new CatalogRepository(database.db)
  const catalog = new CatalogService(catalogRepo, clock)
  // Wrapped so this instance's read caches hear its own lot events before they leave (ADR 033).
  const bus = new ReadCacheBus(options.bus ?? new InProcessEventBus())
  app.decorate('bus', bus)
  // A logout here or on another instance drops the session from this instance's cache.
  const revocations = sessionRevocations(sessions, bus)
  app.addHook('onClose', async () => revocations.stop())
  const ledger = new LedgerService(database, clock)
  const accounts = new AccountRepository(database.db, database.dialect)
  const payPasswordHasher = new Argon2PayPasswordHasher(
    await payPasswordPepper(options.payPasswordPepper, settings),
  )
  // The payment password check (DESIGN §3) that paying from a balance calls (payments/ports.ts).
  const payPasswords = new PayPasswordVerifier({
    transact: transactor(database),
    clock,
    passwords: accounts,
    hasher: payPasswordHasher,
  })
  // The messaging platform's pay (DESIGN §7): the real platform when configured, else the sandbox
  // this server mounts, reached on its own port.
  const wechatPay = { ...wechatPaySettings(options.env), ...options.wechatPay }
  // A payer whose account is linked to an open id of the pay app is named by it (JSAPI `openid`).
  const wechat = wechatPayClient(
    wechatPay,
    () => listeningOrigin(app.server),
    payerOpenid(wechatRepo),
  )
  const paymentsRepo = new PaymentsRepository(database.dialect)
  const payments = new PaymentService({
    transact: transactor(database),
    clock,
    db: database.db,
    payments: paymentsRepo,
    orders: orderPaymentsFor(database, couponHoldsFor(database)),
    ledger,
    passwords: payPasswords,
    wechat,
    idempotency: new IdempotencyStore(database.db),
    log: app.log,
  })
  const recharges = new RechargeService({
    transact: transactor(database),
    clock,
    db: database.db,
    payments: paymentsRepo,
    ledger,
    wechat,
    idempotency: new IdempotencyStore(database.db),
    log: app.log,
  })
  // A user's notices; modules that tell of an event write its notice in the event's transaction.
  const notices = new NoticesService({
    transact: transactor(database),
    clock,
    notices: new NoticesRepository(database.db),
  })
  const noticeWriter = noticeWriterFor(database, clock)
  const bidding = new BiddingService({
    transact: transactor(database),
    clock,
    bus,
    notices: noticeWriter,
    lots: new BiddingRepository(database.db, database.dialect),
    reads: new BiddingReads(database.db),
    watches: new WatchRepository(database.db),
    idempotency: new IdempotencyStore(database.db),
    options: { quotaMultiplier: options.quotaMultiplier ?? DEFAULT_QUOTA_MULTIPLIER },
    log: app.log,
  })
  const mallOrders = new MallOrderService({
    transact: transactor(database),
    clock,
    orders: new OrdersRepository(database.db, database.dialect),
    reads: new OrderReads(database.db),
    holds: couponHoldsFor(database),
    idempotency: new IdempotencyStore(database.db),
    categoryChain: (categoryId) => catalog.mallCategoryChain(categoryId),
    // A mall order an open counter booking holds is not the buyer's to cancel (ADR 016).
    bookedAtCounter: ordersBookedAtCounter,
  })
  const mall = new MallService({
    clock,
    watches: new MallWatchRepository(database.db),
    reads: new MallReads(database.db),
    unitsHeld: (productNo, userId) => mallOrders.unitsHeld(productNo, userId),
  })
  const coupons = new CouponService({
    transact: transactor(database),
    clock,
    coupons: new CouponRepository(database.db, database.dialect),
    categoryChain: (categoryId) => catalog.mallCategoryChain(categoryId),
  })
  const addresses = new AddressService({
    transact: transactor(database),
    clock,
    addresses: new AddressRepository(database.db, database.dialect),
    regions: packagedRegions(),
  })
  // Delivery of paid goods: its fees leave the balance after the payment password check doPay
  // uses; the counter's slots are counted with the cash bookings' (slot-counts.ts).
  const delivery = new DeliveryService({
    transact: transactor(database),
    clock,
    db: database.db,
    repo: new DeliveryRepository(database.db, database.dialect),
    ledger,
    passwords: payPasswords,
    idempotency: new IdempotencyStore(database.db),
    addressOf: (userId, addressId) => addresses.get(userId, addressId, 'zh'),
    claimSlot: (tx, date, slot, capacity) => slotCounts.claimSlotPlace(tx, date, slot, capacity),
    bookedPlaces: slotCounts.bookedPlaces,
    log: app.log,
  })

  // 3. Routes, by service. Every instance answers the process endpoints; the rest by ROLES.
  await app.register(systemRoutes, { prefix: '/svc', clientConfig: config })
  const probes: ReadinessProbe[] = [databaseProbe(database)]
  // Redis: the rate limits' client, and the push bus's publisher and subscriber (a dropped
  // subscription leaves this instance's sockets deaf to every other instance's events).
  const busReady = options.bus?.ready?.bind(options.bus)
  if (limitsRedis || busReady)
    probes.push({
      name: 'redis',
      probe: () => Promise.all([limitsRedis?.redis.ping(), busReady?.()]),
    })
  const readiness = new Readiness(probes)
  app.decorate('readiness', readiness)
  await app.register(readyRoutes, { prefix: '/svc', readiness })
  if (roles.has('main')) {
    await app.register(mediaRoutes, { prefix: MEDIA_PREFIX })
    await app.register(photoRoutes, {
      prefix: MEDIA_PREFIX,
      photos: PhotoService.forDatabase(database, clock),
    })
  }

  const staff = StaffService.forDatabase(database, clock)
  // Remittances, withdrawals and overdue winners judge deposit under the bids' exposure lock.
  const heldDeposit: BankingDeps['heldDeposit'] = (tx, userId) => bidding.heldDeposit(tx, userId)
  const banking = new BankingService({
    transact: transactor(database),
    clock,
    banking: new BankingRepository(database.db, database.dialect),
    ledger,
    // A confirmed remittance pays the orders it names through payments' own path.
    settlement: payments,
    heldDeposit,
    receipts: sharpReceipts,
    idempotency: new IdempotencyStore(database.db),
    passwords: payPasswords,
    notices: noticeWriter,
  })
  const forfeits = new ForfeitService({
    transact: transactor(database),
    clock,
    orders: new OverdueRepository(database.db, database.dialect),
    ledger,
    heldDeposit,
    // A buyer who filed a remittance notice for the order waits for staff, not a forfeit.
    awaitingRemittance: ordersAwaitingRemittance,
    // Nor one who booked to pay cash at the counter, while the booking is open.
    bookedAtCounter: ordersBookedAtCounter,
    // Nor one whose winner may be paying it on the messaging app's sheet.
    paymentOpen: (tx, orderIds) => ordersWithOpenWechatPayment(tx, orderIds, clock.now()),
    idempotency: new IdempotencyStore(database.db),
    notices: noticeWriter,
  })
  // Counter cash bookings: the cash pays through payments' own path; the counter's slots are
  // shared with self-pickups (modules/delivery's slot counts).
  const bookings = new BookingService({
    transact: transactor(database),
    clock,
    bookings: new BookingsRepository(database.db, database.dialect),
    ledger,
    settlement: payments,
    slots: {
      claim: (tx, date, slot, capacity) => slotCounts.claimSlotPlace(tx, date, slot, capacity),
      release: (tx, date, slot) => slotCounts.releaseSlotPlace(tx, date, slot),
    },
    // Any order a waiting notice names, covered or not: the notice's money may yet pay it.
    awaitingRemittance: ordersNamedByRemittance,
    // Nor one whose buyer may still pay it on the messaging app's sheet: cash would pay it twice.
    paymentOpen: ordersWithOpenWechatPayment,
    idempotency: new IdempotencyStore(database.db),
  })
  const users = new UserService({
    users: new UserRepository(database.db),
    ledger,
    bidding: {
      quotaOf: (userId) => bidding.quotaOf(userId),
      counts: (userId) => bidding.counts(userId),
    },
    coupons: { usableCount: (userId) => coupons.usableCount(userId) },
    mall: { watchCount: (userId) => mall.watchCount(userId) },
    notices: { unreadCount: (userId) => notices.unreadCount(userId) },
    chat: { unreadCount: (userId) => chat.unreadCount(userId) },
    payPasswords: { isSet: async (userId) => (await accounts.find(userId)) !== undefined },
  })
  const pushLimits = { ...DEFAULT_PUSH_LIMITS, ...options.push?.limits }
  // Half-open sockets (a phone gone from the network) are found and cut, on every socket route.
  const stopHeartbeat = startSocketHeartbeat(app.websocketServer, pushLimits.pingIntervalMs)
  app.addHook('onClose', async () => stopHeartbeat())
  if (roles.has('push')) {
    await app.register(pushRoutes, {
      prefix: '/svc/push',
      bus,
      service: new PushService(new PushRepository(database.db), clock, pushLimits, app.log),
      clock,
      maxConnectionsPerIp: pushLimits.maxConnectionsPerIp,
      origins: {
        allowed: parseOrigins([...SHOP_WEB_ORIGINS, ...(options.push?.allowedOrigins ?? [])]),
        // Development: pages on this machine, whatever Host a dev proxy forwards (Vite, README).
        loopback: options.env !== 'production',
      },
      proxyTrusted: (options.trustProxy ?? false) !== false,
    })
  }

  // Issue 11 · the customer-service chat (modules/chat, ADR 018): persisted, then over the bus to
  // the collector's sockets (/svc/push/chat) and staff's (/svc/main/admin/chat/ws) on every instance.
  const chat = new ChatService({
    transact: transactor(database),
    clock,
    repo: new ChatRepository(database.db),
    bus,
    agentId: options.chat?.agentId ?? DEFAULT_CHAT_AGENT_ID,
    cards: catalogueCards(catalog),
    images: chatImages,
    newImageKey: () => randomBytes(16).toString('hex'),
    limits: { ...DEFAULT_CHAT_LIMITS, ...options.chat?.limits },
  })
  const staffRouteTable: StaffRouteEntry[] = []
  app.decorate('staffRouteTable', staffRouteTable)
  // The main role: its API, the staff console, the platforms' notices and sandboxes, the chat.
  if (roles.has('main')) {
    // The platform's notices and its sandbox are not signed with our request HMAC.
    await app.register(notifyRoutes, {
      prefix: `${MAIN_PREFIX}/pay/notify`,
      notices: new PayNotices({ check: (body) => wechat.checkNotice(body), payments, recharges }),
    })
    if (wechatPay.sandbox && wechatPay.key !== undefined) {
      const sandbox = new WxPaySandbox(
        { appId: wechatPay.appId, mchId: wechatPay.mchId, key: wechatPay.key },
        wechatPay.noticeDelivery ?? httpDelivery(),
        clock,
        { log: app.log, retryDelaysMs: wechatPay.sandboxRetryDelaysMs },
      )
      await app.register(wxpaySandboxRoutes, { prefix: WXPAY_SANDBOX_PREFIX, sandbox })
    }
    // The messaging platform's official account stood in for (ADR 013's pattern): OAuth, tokens,
    // tickets. Decorated so tests can count what it issued (our client must cache tokens).
    // The SMS provider's sandbox (ADR 028): outside production only, as it keeps codes in an outbox.
    if ({ ...smsSettings(options.env), ...options.smsProvider }.sandbox) {
      await app.register(smsSandboxRoutes, {
        prefix: SMS_SANDBOX_PREFIX,
        sandbox: options.smsSandbox ?? new SmsSandbox(SANDBOX_SMS_ACCOUNT, clock),
      })
    }
    if (wechatMp.sandbox && wechatMp.secret !== undefined) {
      const mpSandbox = new MpSandbox(
        { appId: wechatMp.appId, secret: wechatMp.secret, name: MP_SANDBOX_ACCOUNT_NAME },
        clock,
      )
      app.decorate('mpSandbox', mpSandbox)
      await app.register(mpSandboxRoutes, { prefix: WX_SANDBOX_PREFIX, sandbox: mpSandbox })
      // When that sandbox is our platform, a token or ticket cached in the database by an earlier run
      // is one it no longer knows: every page's wx.config would be refused until the ticket expired.
      const talksToOwnSandbox =
        wechatMp.apiBase === undefined && options.wechatMp?.transport === undefined
      if (talksToOwnSandbox) await wechatRepo.forgetTokens()
    }
    // The push role's own cookie check (a push service with no sockets of its own).
    const chatSessions = new PushService(
      new PushRepository(database.db),
      clock,
      pushLimits,
      app.log,
    )
    const chatHub = new ChatHub(
      chat,
      clock,
      (sid) => chatSessions.sessionOf(sid),
      { ...DEFAULT_CHAT_SOCKET_LIMITS, ...options.chat?.socketLimits },
      app.log,
    )
    const chatOrigins = {
      allowed: parseOrigins([...SHOP_WEB_ORIGINS, ...(options.push?.allowedOrigins ?? [])]),
      loopback: options.env !== 'production',
    }
    await app.register(chatSocketRoutes, {
      prefix: '/svc/push',
      hub: chatHub,
      bus,
      origins: chatOrigins,
      maxConnectionsPerIp: pushLimits.maxConnectionsPerIp,
    })

    // Issue 12 · the operator API and console areas, once every service they call exists.
    await app.register(staffRoutes, {
      prefix: `${MAIN_PREFIX}/admin`,
      routeTable: staffRouteTable,
      service: staff,
      clock,
      loginLimit: limits.staffLogin,
      delivery,
      operations: {
        listings: new ListingService({
          transact: transactor(database),
          clock,
          listings: new ListingRepository(database.dialect),
          priceSteps: () => bidding.priceSteps(),
        }),
        counter: new CounterService({ users, ledger }),
        coupons,
        banking,
        forfeits,
        bookings,
      },
      // Issue 12 · the console's areas, each route naming its roles (ADR 021).
      areas: async (scope) => {
        await scope.register(chatStaffRoutes, {
          service: chat,
          hub: chatHub,
          origins: chatOrigins,
          sessionOf: (sid) => staff.sessionOf(sid),
        })
        // Issue 12 · catalogue (specials, lots, photos, CSV import) registers here.
        await scope.register(photoStaffRoutes, {
          photos: PhotoService.forDatabase(database, clock),
        })
        await scope.register(staffCatalogueRoutes, {
          service: StaffCatalogueService.forDatabase(
            database,
            clock,
            () => bidding.priceSteps(),
            options.imageHosts,
          ),
        })
        // Issue 12 · catalogue settings (mall items, categories, banners, coupons, increments) here.
        await scope.register(catalogSettingsArea, { database, clock })
        // Issue 12 · sales (live view, results, relist, overdue) registers here.
        await scope.register(salesStaffRoutes, {
          service: new SalesService({
            transact: transactor(database),
            clock,
            sales: new SalesRepository(database.db, database.dialect),
            priceSteps: () => bidding.priceSteps(),
            // The catalogue's addLot inside the relist's own transaction: one change, or none.
            addLotIn: (tx, input, steps) =>
              new ListingService({
                transact: (work) => work(tx),
                clock,
                listings: new ListingRepository(database.dialect),
                priceSteps: () => Promise.resolve(steps),
              }).addLot(input),
            depositOf: async (userId) => (await ledger.balances(userId)).deposit,
          }),
        })
        // Issue 12 · money (adjustments, refunds, ledger report) registers here.
        const money = moneyDeskFor({ database, clock, ledger, heldDeposit, bidding })
        await scope.register(moneyDeskRoutes, money)
        // Issue 12 · fulfilment (pickups by slot, pick lists) registers here.
        await scope.register(fulfilmentStaffRoutes, {
          fulfilment: new FulfilmentService({ clock, repo: new FulfilmentRepository(database.db) }),
        })
      },
    })
    await app.register(
      async (main) => {
        const verify = signedRequestHook(MAIN_PREFIX, 'main', signing)
        main.addHook('onRequest', verify)
        const demoDeposit = options.demoDeposit ?? 0
        const passport = new PassportService(
          passportRepo,
          smsSenderFor(app, options, clock),
          clock,
          options.env !== 'production',
          demoDeposit > 0
            ? async (userId) => {
                await ledger.creditDeposit(userId, demoDeposit, 'demo deposit')
              }
            : undefined,
          (sessionId) => revocations.announce(sessionId),
        )
        await main.register(passportRoutes, { service: passport, rateLimit: limits })
        await main.register(userRoutes, { service: users })
        await main.register(noticesRoutes, { service: notices })
        await main.register(bankingRoutes, {
          service: banking,
          remittanceLimit: limits.remittance ?? 30,
        })
        await main.register(financeRoutes, {
          finance: new FinanceService({
            transact: transactor(database),
            clock,
            ledger,
            holds: { heldDeposit: (tx, userId) => bidding.heldDeposit(tx, userId) },
            idempotency: new IdempotencyStore(database.db),
          }),
        })
        await main.register(accountRoutes, {
          service: new AccountService({
            clock,
            accounts,
            hasher: payPasswordHasher,
            verifier: payPasswords,
            consumeSmsCode: (mobile, code) => passport.consumeCode(mobile, code),
          }),
          setPayPasswordLimit: limits.payPassword ?? 10,
        })
        await main.register(catalogRoutes, {
          service: catalog,
          clock,
          viewerOf: (lotId, userId) => bidding.stakeIn(lotId, userId),
          mallViewerOf: (productNo, userId) => mall.viewerOf(productNo, userId),
        })
        await main.register(biddingRoutes, { service: bidding })
        await main.register(orderRoutes, {
          service: mallOrders,
          groups: new OrderGroups({ reads: new OrderReads(database.db), clock }),
        })
        await main.register(bookingRoutes, { service: bookings })
        await main.register(mallRoutes, { service: mall })
        await main.register(paymentRoutes, { payments, recharges })
        await main.register(couponRoutes, { service: coupons })
        await main.register(addressRoutes, { service: addresses })
        await main.register(deliveryRoutes, { service: delivery })
        // [issue 11 · messaging-platform sign-in and share signature: helper B]
        await main.register(wechatRoutes, {
          service: new WechatService({
            transact: transactor(database),
            clock,
            repo: wechatRepo,
            mp,
            passport,
            tokens: new SharedPlatformTokens(wechatRepo, clock, options.wechatMp?.tokens),
          }),
          bindLimit: limits.login,
        })
        await main.register(chatRoutes, { service: chat })
        // Unknown paths are checked for a signature too, so they reveal nothing to strangers.
        main.setNotFoundHandler({ preHandler: verify }, (request, reply) =>
          sendError(request, reply, 404, 'NOT_FOUND'),
        )
      },
      { prefix: MAIN_PREFIX },
    )
  }

  if (roles.has('search')) {
    await app.register(
      async (search) => {
        const verify = signedRequestHook(SEARCH_PREFIX, 'search', signing)
        search.addHook('onRequest', verify)
        await search.register(searchRoutes, { service: new SearchService(catalogRepo, clock) })
        search.setNotFoundHandler({ preHandler: verify }, (request, reply) =>
          sendError(request, reply, 404, 'NOT_FOUND'),
        )
      },
      { prefix: SEARCH_PREFIX },
    )
  }

  // 4. The web app and the fallbacks.
  // first-screen (issue 13): the landing pages sign their inlined calls with the app's clock.
  // The web app belongs to the main role; elsewhere every unknown path is a coded 404.
  const web = roles.has('main')
    ? await serveWebApp(app, options.webDist, config, { now: () => options.clock.now() })
    : undefined
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      web !== undefined &&
      request.method === 'GET' &&
      !request.url.startsWith('/svc') &&
      !/\.\w+($|\?)/.test(request.url)
    return isPage ? web.sendIndex(reply) : sendError(request, reply, 404, 'NOT_FOUND')
  })

  return app
}
