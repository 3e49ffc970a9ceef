import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { DEFAULT_QUOTA_MULTIPLIER } from '@numisma/domain/quota'
import { DEFAULT_CHAT_AGENT_ID } from '@numisma/contracts/chat'
import { z } from 'zod'
import { parseRoles, type Role } from './roles'

/** The process contract of DESIGN §9, read once from the environment. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** Unset: `demo` in development, `none` in production (DESIGN §7). */
  SEED: z.enum(['demo', 'none']).optional(),
  /** Unset: `production` when NODE_ENV is, else `development` — one switch cannot say two things. */
  NUMISMA_ENV: z.enum(['development', 'production']).optional(),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().optional(),
  NUMISMA_ADMIN_PASSWORD: z.string().min(8).optional(),
  /** Keys the payment password hashes (DESIGN §3); production refuses to start without it. */
  PAY_PASSWORD_PEPPER: z.string().min(16).optional(),
  WEB_DIST: z.string().optional(),
  /** Proxies in front of the server: a hop count or addresses; unset = none (client IPs as seen). */
  TRUST_PROXY: z.string().optional(),
  /** Origins, comma-separated, whose pages may open a push socket besides the shop's own. */
  PUSH_ALLOWED_ORIGINS: z.string().optional(),
  /**
   * Hosts, comma-separated, whose https pictures staff may use besides our own media (none). Host
   * names only: each also goes into the CSP's img-src, where `*` would allow every host.
   */
  IMAGE_URL_HOSTS: z
    .string()
    .regex(
      /^\s*(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+\s*(?:,\s*|$))*$/i,
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (pino-pretty, coloured lines) or `json`; unset: pretty unless in production. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  NODE_ENV: z.string().optional(),
  /** Deposit × this = bidding quota (DESIGN §4). */
  QUOTA_MULTIPLIER: z.coerce.number().int().min(1).max(1000).default(DEFAULT_QUOTA_MULTIPLIER),
  /** The messaging platform's pay (DESIGN §7): merchant app id, merchant number and key. */
  WECHAT_PAY_APPID: z.string().min(1).optional(),
  WECHAT_PAY_MCH_ID: z.string().min(1).optional(),
  WECHAT_PAY_KEY: z.string().min(16).optional(),
  /** Base URL of its pay API; unset: the sandbox on this server. */
  WECHAT_PAY_GATEWAY: z.url().optional(),
  /** Where it posts payment notices; unset: this server's own notify path. */
  WECHAT_PAY_NOTIFY_URL: z.url().optional(),
  /** Mount the pay sandbox at /svc/sandbox/wxpay; unset: on outside production. */
  WECHAT_PAY_SANDBOX: z.enum(['true', 'false']).optional(),
  /**
   * The messaging platform's official account (DESIGN §7): OAuth sign-in, JS-SDK tickets. App id
   * and secret; the bases of its OAuth pages (open.weixin.qq.com) and API (api.weixin.qq.com).
   */
  WECHAT_MP_APPID: z.string().min(1).optional(),
  WECHAT_MP_SECRET: z.string().min(16).optional(),
  WECHAT_OAUTH_BASE: z.url().optional(),
  WECHAT_API_BASE: z.url().optional(),
  /** Mount the platform sandbox (OAuth, tokens, tickets) at /svc/sandbox/wx; unset: on outside production. */
  WECHAT_MP_SANDBOX: z.enum(['true', 'false']).optional(),
  /**
   * Sign-in codes sent to any numbers from one address in an hour (default 30). Many phones share a
   * carrier's address; a test server creating hundreds of users raises it.
   */
  /** SMS provider (ADR 028): `aliyun` or `sandbox`; unset: sandbox outside production, none in it. */
  SMS_PROVIDER: z.enum(['aliyun', 'sandbox']).optional(),
  SMS_ACCESS_KEY_ID: z.string().min(1).optional(),
  SMS_ACCESS_KEY_SECRET: z.string().min(1).optional(),
  SMS_SIGN_NAME: z.string().min(1).optional(),
  SMS_TEMPLATE_CODE: z.string().min(1).optional(),
  /**
   * The provider's API base; unset: https://dysmsapi.aliyuncs.com. https only (the number and its
   * code travel in it), except to this machine (a local sandbox).
   */
  SMS_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .refine((url) => url.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url))
    .optional(),
  SMS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).optional(),
  STAFF_LOGINS_PER_WINDOW: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /** The customer-service chat's agent id (spec §3's fixed default peer). */
  CHAT_AGENT_ID: z.string().min(1).max(64).optional(),
  /** The services this instance serves, comma-separated (ADR 032); unset: main,search,push. */
  ROLES: z.string().optional(),
  /** How long a SIGTERM waits for requests in flight before closing them (ADR 032). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * How long a SIGTERM keeps serving, every answer saying `Connection: close`, before the listener
   * closes (ADR 032): longer than the proxy's upstream keep-alive timeout. 0: no window.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(0),
})

export interface Config {
  port: number
  host: string
  dataDir: string
  seed: 'demo' | 'none'
  env: 'development' | 'production'
  databaseUrl: string | undefined
  databasePoolSize: number
  redisUrl: string | undefined
  adminPassword: string | undefined
  webDist: string
  logLevel: string
  /** Human-readable log lines (development) rather than JSON (production, log collectors). */
  prettyLogs: boolean
  trustProxy: false | number | string
  pushAllowedOrigins: string[]
  imageHosts: string[]
  quotaMultiplier: number
  /** Unset in development: a random one kept in the settings table (modules/account). */
  payPasswordPepper: string | undefined
  wechatPay: WechatPaySettings
  wechatMp: WechatMpSettings
  chatAgentId: string
  sms: SmsSettings
  /** Undefined: the app's default (30). */
  smsPerAddressPerHour: number | undefined
  /** Staff sign-in attempts one address may make in 15 minutes (default 10). */
  staffLoginsPerWindow: number | undefined
  /** The services this instance registers (ROLES; ADR 032). */
  roles: Role[]
  /** SHUTDOWN_TIMEOUT_MS: the bound on letting requests in flight finish after SIGTERM. */
  shutdownTimeoutMs: number
  /** SHUTDOWN_DRAIN_MS: how long SIGTERM keeps serving before the listener closes. */
  shutdownDrainMs: number
}

/**
 * The messaging platform's pay (DESIGN §7, spec §3): merchant credentials and where the platform
 * is. Real credentials are configuration; outside production the sandbox's stand in for them.
 */
export interface WechatPaySettings {
  appId: string
  mchId: string
  /** The merchant key that signs everything; undefined (production, unset) turns the channel off. */
  key: string | undefined
  /** Base URL of the pay API (`…/pay/unifiedorder`); undefined: the sandbox on this server. */
  gateway: string | undefined
  /** The URL the platform posts payment notices to; undefined: this server's notify path. */
  notifyUrl: string | undefined
  /** Whether this server mounts the pay sandbox at /svc/sandbox/wxpay. */
  sandbox: boolean
}

/** The sandbox merchant (development and tests only; README). */
export const SANDBOX_WECHAT_PAY = {
  appId: 'wx5a4d6e3b2c1f0a99',
  mchId: '1900000109',
  key: 'NumismaSandboxMerchantKey0000001',
} as const

/**
 * Outside production every credential falls back to the sandbox merchant's. In production only
 * configured ones count: a known default key would let anyone sign a payment notice.
 */
export function wechatPaySettings(
  env: Config['env'],
  e: {
    WECHAT_PAY_APPID?: string | undefined
    WECHAT_PAY_MCH_ID?: string | undefined
    WECHAT_PAY_KEY?: string | undefined
    WECHAT_PAY_GATEWAY?: string | undefined
    WECHAT_PAY_NOTIFY_URL?: string | undefined
    WECHAT_PAY_SANDBOX?: 'true' | 'false' | undefined
  } = {},
): WechatPaySettings {
  const fallback = env === 'production' ? undefined : SANDBOX_WECHAT_PAY
  return {
    appId: e.WECHAT_PAY_APPID ?? fallback?.appId ?? '',
    mchId: e.WECHAT_PAY_MCH_ID ?? fallback?.mchId ?? '',
    key: e.WECHAT_PAY_KEY ?? fallback?.key,
    gateway: e.WECHAT_PAY_GATEWAY,
    notifyUrl: e.WECHAT_PAY_NOTIFY_URL,
    sandbox:
      e.WECHAT_PAY_SANDBOX === undefined ? env !== 'production' : e.WECHAT_PAY_SANDBOX === 'true',
  }
}

/**
 * The SMS provider (ADR 028). `provider` is undefined only in production with SMS_PROVIDER unset,
 * which server.ts refuses: the sandbox there would send no text, and must be asked for.
 */
export interface SmsSettings {
  provider: 'aliyun' | 'sandbox' | undefined
  accessKeyId: string | undefined
  accessKeySecret: string | undefined
  signName: string | undefined
  templateCode: string | undefined
  endpoint: string
  /** Whether this server mounts the provider's sandbox at /svc/sandbox/sms (outside production). */
  sandbox: boolean
}

/** The account the SMS sandbox knows (development and tests only; README). */
export const SANDBOX_SMS_ACCOUNT = {
  accessKeyId: 'LTAI5tNumismaSandbox0001',
  accessKeySecret: 'NumismaSandboxSmsSecret00000001',
  signName: '泉藏',
  templateCode: 'SMS_200000001',
} as const

export function smsSettings(
  env: Config['env'],
  e: {
    SMS_PROVIDER?: 'aliyun' | 'sandbox' | undefined
    SMS_ACCESS_KEY_ID?: string | undefined
    SMS_ACCESS_KEY_SECRET?: string | undefined
    SMS_SIGN_NAME?: string | undefined
    SMS_TEMPLATE_CODE?: string | undefined
    SMS_ENDPOINT?: string | undefined
  } = {},
): SmsSettings {
  return {
    provider: e.SMS_PROVIDER ?? (env === 'production' ? undefined : 'sandbox'),
    accessKeyId: e.SMS_ACCESS_KEY_ID,
    accessKeySecret: e.SMS_ACCESS_KEY_SECRET,
    signName: e.SMS_SIGN_NAME,
    templateCode: e.SMS_TEMPLATE_CODE,
    endpoint: e.SMS_ENDPOINT ?? 'https://dysmsapi.aliyuncs.com',
    sandbox: env !== 'production',
  }
}

/** What is missing for the configured provider, or undefined when it can send. */
export function smsSettingsProblem(sms: SmsSettings): string | undefined {
  if (sms.provider === undefined) {
    return 'SMS_PROVIDER must be set in production: aliyun (with its credentials), or sandbox to send no texts'
  }
  if (sms.provider !== 'aliyun') return undefined
  const missing = (
    [
      ['SMS_ACCESS_KEY_ID', sms.accessKeyId],
      ['SMS_ACCESS_KEY_SECRET', sms.accessKeySecret],
      ['SMS_SIGN_NAME', sms.signName],
      ['SMS_TEMPLATE_CODE', sms.templateCode],
    ] as const
  )
    .filter(([, value]) => value === undefined)
    .map(([name]) => name)
  return missing.length > 0 ? `SMS_PROVIDER=aliyun needs ${missing.join(', ')}` : undefined
}

/**
 * The messaging platform's official account (DESIGN §7): sign-in by its OAuth and JS-SDK tickets.
 * JSAPI pay needs the payer's open id under the pay merchant's app id, so the sandbox account is
 * the sandbox merchant's app.
 */
export interface WechatMpSettings {
  appId: string
  /** Undefined (production, unset) turns messaging-app sign-in and sharing off. */
  secret: string | undefined
  /** Where its authorize page lives; undefined: the sandbox on this server. */
  oauthBase: string | undefined
  /** Where its API (`sns/…`, `cgi-bin/…`) lives; undefined: the sandbox on this server. */
  apiBase: string | undefined
  /** Whether this server mounts the platform sandbox at /svc/sandbox/wx. */
  sandbox: boolean
}

/** The sandbox official account (development and tests only; README). */
export const SANDBOX_WECHAT_MP = {
  appId: SANDBOX_WECHAT_PAY.appId,
  secret: '4f1c0e9d8b7a65432109fedcba987654',
} as const

/** As {@link wechatPaySettings}: outside production the sandbox's account stands in. */
export function wechatMpSettings(
  env: Config['env'],
  e: {
    WECHAT_MP_APPID?: string | undefined
    WECHAT_MP_SECRET?: string | undefined
    WECHAT_OAUTH_BASE?: string | undefined
    WECHAT_API_BASE?: string | undefined
    WECHAT_MP_SANDBOX?: 'true' | 'false' | undefined
  } = {},
): WechatMpSettings {
  const fallback = env === 'production' ? undefined : SANDBOX_WECHAT_MP
  return {
    appId: e.WECHAT_MP_APPID ?? fallback?.appId ?? '',
    secret: e.WECHAT_MP_SECRET ?? fallback?.secret,
    oauthBase: e.WECHAT_OAUTH_BASE,
    apiBase: e.WECHAT_API_BASE,
    sandbox:
      e.WECHAT_MP_SANDBOX === undefined ? env !== 'production' : e.WECHAT_MP_SANDBOX === 'true',
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.')).join(', ')
    throw new Error(`invalid environment: ${fields}`)
  }
  const e = parsed.data
  const mode = runMode(e)
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    seed: e.SEED ?? (mode === 'production' ? 'none' : 'demo'),
    env: mode,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL || undefined,
    adminPassword: e.NUMISMA_ADMIN_PASSWORD,
    webDist: path.resolve(
      e.WEB_DIST ?? path.join(workspaceRoot(import.meta.dirname), 'apps', 'web', 'dist'),
    ),
    logLevel: e.LOG_LEVEL,
    prettyLogs:
      e.LOG_FORMAT === undefined
        ? mode !== 'production' && e.NODE_ENV !== 'production'
        : e.LOG_FORMAT === 'pretty',
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    pushAllowedOrigins: (e.PUSH_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    imageHosts: (e.IMAGE_URL_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    quotaMultiplier: e.QUOTA_MULTIPLIER,
    payPasswordPepper: e.PAY_PASSWORD_PEPPER,
    wechatPay: wechatPaySettings(mode, e),
    wechatMp: wechatMpSettings(mode, e),
    chatAgentId: e.CHAT_AGENT_ID ?? DEFAULT_CHAT_AGENT_ID,
    sms: smsSettings(mode, e),
    smsPerAddressPerHour: e.SMS_PER_ADDRESS_PER_HOUR,
    staffLoginsPerWindow: e.STAFF_LOGINS_PER_WINDOW,
    roles: parseRoles(e.ROLES),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
  }
}

/**
 * Secrets production cannot run without, and the payment sandbox it must not run; server.ts
 * refuses to start while one is wrong. (The
 * pepper cannot default there: a generated one kept beside the hashes it keys would defeat it.)
 */
export function assertProductionSecrets(config: Config): void {
  if (config.env !== 'production') return
  if (config.payPasswordPepper === undefined) {
    throw new Error('PAY_PASSWORD_PEPPER must be set in production (16 characters or more)')
  }
  // The sandbox signs "paid" notices with the merchant key and serves a cashier that pays
  // without money: with a real key it would mint genuine-looking payments.
  if (config.wechatPay.sandbox) {
    throw new Error('WECHAT_PAY_SANDBOX must not be true in production')
  }
  // The platform sandbox hands out open ids for any name typed into its authorize page.
  if (config.wechatMp.sandbox) {
    throw new Error('WECHAT_MP_SANDBOX must not be true in production')
  }
  // No SMS provider: nobody could sign in, or (before ADR 028) the sandbox logged every code.
  const smsProblem = smsSettingsProblem(config.sms)
  if (smsProblem) throw new Error(smsProblem)
}

/**
 * Production or development (DESIGN §7): NUMISMA_ENV when set; otherwise NODE_ENV=production also
 * means production, so `NODE_ENV=production npm start` never serves sandbox SMS codes.
 */
export function runMode(e: { NUMISMA_ENV?: string; NODE_ENV?: string }): Config['env'] {
  if (e.NUMISMA_ENV === 'production' || e.NUMISMA_ENV === 'development') return e.NUMISMA_ENV
  return e.NODE_ENV === 'production' ? 'production' : 'development'
}

/**
 * The repository root above `from`: this file runs from apps/server/src/platform under tsx and
 * from apps/server/dist once bundled, so the web build is found by looking upwards, not by a fixed
 * number of `..`.
 */
export function workspaceRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'apps', 'web'))) return dir
    if (path.dirname(dir) === dir) return process.cwd()
  }
}

/**
 * `1` → trust one hop (the proxy in front of us); `10.0.0.1,10.0.0.0/8` → those proxies;
 * unset/`false`/`0` → none. `true` is refused: it takes the leftmost X-Forwarded-For address,
 * which the client writes, so a spoofed header would give every request a fresh rate-limit key.
 */
export function parseTrustProxy(value: string | undefined): false | number | string {
  const text = value?.trim() ?? ''
  if (text === '' || text === 'false' || text === '0') return false
  if (text === 'true') {
    throw new Error(
      'TRUST_PROXY=true would trust any client-written X-Forwarded-For: give the number of proxies in front of the server (e.g. 1) or their addresses/CIDRs',
    )
  }
  if (/^\d+$/.test(text)) return Number(text)
  const entries = text.split(',').map((entry) => entry.trim())
  const bad = entries.filter((entry) => !isProxyAddress(entry))
  if (bad.length > 0) {
    throw new Error(
      `TRUST_PROXY: ${bad.join(', ')} is not a hop count, an IP address or a CIDR (loopback, linklocal and uniquelocal are also accepted)`,
    )
  }
  return entries.join(',')
}

function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true
  const [address, bits, ...rest] = entry.split('/')
  if (rest.length > 0 || address === undefined) return false
  const family = net.isIP(address)
  if (family === 0) return false
  if (bits === undefined) return true
  if (!/^\d+$/.test(bits)) return false
  return Number(bits) <= (family === 4 ? 32 : 128)
}
