import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'

/**
 * Security headers on every response (issue 15; ADR 027): pages, JSON answers, static files and
 * errors alike, since helmet sets them in an onRequest hook, before any handler can fail.
 * The part of AppOptions the policy depends on.
 */
export interface SecurityHeaderOptions {
  env: 'development' | 'production'
  /** PUSH_ALLOWED_ORIGINS: origins besides ours whose sockets the pages may open. */
  push?: { allowedOrigins?: readonly string[] }
  /** IMAGE_URL_HOSTS: hosts whose https pictures the catalogue may show (platform/image-hosts). */
  imageHosts?: readonly string[]
}

/** Where swagger-ui is served (app.ts): /svc/docs, or under the staff cookie's path in production. */
export const DOCS_PREFIXES = ['/svc/docs', '/svc/main/admin/docs'] as const

/** Features the shop never asks for; a page of ours, or a frame in it, cannot either. */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'serial',
  'usb',
]
  .map((feature) => `${feature}=()`)
  .join(', ')

export const HSTS = 'max-age=31536000; includeSubDomains'

/**
 * The policy of a response that is not a page (JSON, scripts, styles, pictures): nothing may load,
 * run or frame it should a browser open it as a document (an SVG picture keeps its inline styles
 * and data: images). The page policy is a kilobyte with the rest of helmet's headers, on each of
 * the ~45 files and answers a landing page fetches over HTTP/1.1 without header compression:
 * 361 KiB transferred on home against 252 before the headers (Lighthouse, CI of 82b0aa4).
 */
export const RESOURCE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"

/** Headers that only a document (a page and what it opens) acts on. */
const DOCUMENT_ONLY_HEADERS = [
  'permissions-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]

const HOST = /^[a-z0-9.-]+(:\d{1,5})?$/i

/**
 * The push socket on this host. CSP 3 lets 'self' cover ws:/wss: to the page's own host, but
 * WebKit before 15.4 did not, so the host is named too (only when it is a plain host[:port]).
 */
function ownSocket(req: IncomingMessage): string {
  const host = req.headers.host ?? ''
  return HOST.test(host) ? `ws://${host} wss://${host}` : ''
}

/** `https://a.example` → `wss://a.example`; anything that is not an http(s) origin is dropped. */
export function socketOrigins(origins: readonly string[]): string[] {
  const out: string[] = []
  for (const origin of origins) {
    try {
      const url = new URL(origin)
      if (url.protocol !== 'https:' && url.protocol !== 'http:') continue
      out.push(`${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`)
    } catch {
      // config.ts already refuses malformed origins; nothing to add for one here.
    }
  }
  return out
}

export function shopDirectives(options: SecurityHeaderOptions) {
  const production = options.env === 'production'
  return {
    defaultSrc: ["'self'"],
    // Every script is a built file; the inlined config and first answers are JSON data blocks.
    // Outside production eruda (spec §2) evaluates what is typed into its console.
    scriptSrc: ["'self'", ...(production ? [] : ["'unsafe-eval'"])],
    scriptSrcAttr: ["'none'"],
    // The boot placeholder in index.html, the sandbox pages and eruda use inline styles.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: [
      "'self'",
      'data:',
      'blob:',
      ...(options.imageHosts ?? []).map((host) => `https://${host}`),
    ],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ownSocket, ...socketOrigins(options.push?.allowedOrigins ?? [])],
    mediaSrc: ["'self'", 'blob:'],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    frameSrc: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Would send a plain-http deployment's own requests to https; HSTS covers the https one.
    upgradeInsecureRequests: null,
  }
}

/** swagger-ui: its bundle styles inline and shows the validator badge and data: images. */
export function docsDirectives() {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  }
}

export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeaderOptions,
): Promise<void> {
  // Each policy is built once. @fastify/helmet built helmet's middleware again on every request
  // (normalising every directive each time: 5–8% of the server's CPU on the read bench).
  const common = {
    // Sent below, only when the request came over https.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Other sites may not embed our pictures or scripts; our own subdomains may.
    crossOriginResourcePolicy: { policy: 'same-site' },
  } as const
  const shop = helmet({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: shopDirectives(options) },
  })
  const docs = helmet({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: docsDirectives() },
  })
  // In onRequest, before any handler can fail, so errors carry the headers too. Swagger-ui's
  // routes (those under a docs prefix) get the looser policy; chosen by the matched route's path,
  // so no route can opt into it by its config.
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url
    const isDocs = route !== undefined && DOCS_PREFIXES.some((prefix) => route.startsWith(prefix))
    const policy = isDocs ? docs : shop
    policy(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined))
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY)
    // request.protocol honours TRUST_PROXY: X-Forwarded-Proto counts only from a trusted proxy.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS)
  })
  // Pages keep the whole set; every other response gets the short policy and nosniff, framing
  // refusal, CORP and Referrer-Policy (set above), without what only a document acts on.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload
    reply.header('content-security-policy', RESOURCE_CSP)
    for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name)
    return payload
  })
}
