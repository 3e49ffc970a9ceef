import type { FastifyRequest } from 'fastify'
import type { AppOptions } from './app'
import type { Clock } from './platform/clock'
import type { Config } from './platform/config'
import type { Database } from './platform/db'
import type { EventBus } from './platform/event-bus'
import { redactOAuthCode } from './modules/wechat/routes'
import { LOG_REDACTION, redactUrl } from './platform/log-redaction'

/**
 * What a request log line says of the request: Fastify's fields, with the URL's secrets taken out
 * (a messaging-platform OAuth code signs its holder in once, so a log reader must not see it) and
 * its mobile numbers masked (a staff search by number carries one in its query).
 */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(redactOAuthCode(request.url)),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}

/**
 * The process's logger (pino): the level and format configured, request lines without the URL's
 * secrets, and secrets, codes and mobile numbers redacted from whatever is logged (ADR 028).
 */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'prettyLogs'>) {
  return {
    level: config.logLevel,
    serializers: { req: requestForLog },
    redact: LOG_REDACTION,
    // Readable lines in development; JSON for production's log collectors.
    ...(config.prettyLogs
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  }
}

/**
 * The app's options from the process config (`npm start`, server.ts). Kept apart from server.ts,
 * which starts a server when imported, so a test can prove each setting the environment names
 * reaches the app: a setting read by loadConfig but dropped here silently runs production on
 * development defaults.
 */
export function appOptionsFromConfig(
  config: Config,
  deps: { database: Database; clock: Clock; bus?: EventBus; deployment?: string },
): AppOptions {
  return {
    bus: deps.bus,
    // Its own rate-limit and nonce keys in a Redis other shops may share (ADR 032).
    ...(deps.deployment && { deployment: deps.deployment }),
    database: deps.database,
    clock: deps.clock,
    env: config.env,
    webDist: config.webDist,
    logger: loggerOptions(config),
    trustProxy: config.trustProxy,
    // Nonces in Redis when configured, shared by every instance (ADR 029).
    redisUrl: config.redisUrl,
    // The services this instance registers (ROLES, ADR 032).
    roles: config.roles,
    push: { allowedOrigins: config.pushAllowedOrigins },
    imageHosts: config.imageHosts,
    quotaMultiplier: config.quotaMultiplier,
    payPasswordPepper: config.payPasswordPepper,
    wechatPay: config.wechatPay,
    wechatMp: config.wechatMp,
    smsProvider: config.sms,
    chat: { agentId: config.chatAgentId },
    rateLimit: {
      ...(config.smsPerAddressPerHour === undefined
        ? {}
        : { smsPerCaller: config.smsPerAddressPerHour }),
      ...(config.staffLoginsPerWindow === undefined
        ? {}
        : { staffLogin: config.staffLoginsPerWindow }),
    },
    // A 5,000-yuan deposit for each new demo account (× QUOTA_MULTIPLIER = its bidding quota).
    demoDeposit: config.seed === 'demo' && config.env !== 'production' ? 500_000 : 0,
  }
}
