import type { FastifyReply, FastifyRequest } from 'fastify'
import { COMPRESSION_THRESHOLD } from './compression'
import type { PreparedBody } from './read-cache'

/**
 * Cache-Control of the catalogue's reads (ADR 033). Every call is signed, but the public pairs are
 * in every browser, so what an anonymous caller reads is public: a shared cache may keep it, keyed
 * by the app id (`Vary: X-App-Id`, one value for every anonymous caller), and
 * - prices and states (lots, specials, the lists) must be revalidated on every use (`no-cache`):
 *   a copy older than a push the page already had would move a price backwards; the ETag makes
 *   the check a 304;
 * - categories, the category tree and banners change by staff hand only and may be kept briefly.
 * What carries a signed-in caller's own fields (their proxy maximum, their order) is theirs alone.
 */
export const CACHE_CONTROL = {
  live: 'public, no-cache',
  settings: 'public, max-age=10',
  personal: 'private, no-store',
} as const

const VARY = 'X-App-Id, Accept-Encoding'

/** Sends a prepared body: a 304 for a matching If-None-Match, else its copy in the best encoding. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PreparedBody,
  cacheControl: string,
): FastifyReply {
  void reply.header('cache-control', cacheControl).header('vary', VARY).header('etag', body.etag)
  if (matches(request.headers['if-none-match'], body.etag)) return reply.code(304).send()
  void reply.type('application/json; charset=utf-8')
  if (body.json.length >= COMPRESSION_THRESHOLD) {
    const accepted = request.headers['accept-encoding'] ?? ''
    if (accepts(accepted, 'br')) return reply.header('content-encoding', 'br').send(body.br)
    if (accepts(accepted, 'gzip')) return reply.header('content-encoding', 'gzip').send(body.gzip)
  }
  return reply.send(body.json)
}

/** A body for one signed-in caller: never stored anywhere but sent as it is. */
export function sendPersonal(reply: FastifyReply, value: unknown): FastifyReply {
  return reply
    .header('cache-control', CACHE_CONTROL.personal)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(value))
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes do not count.
  const bare = etag.replace(/^W\//, '')
  return ifNoneMatch
    .split(',')
    .some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === bare)
}

/** Whether Accept-Encoding takes `coding` (listed and not refused with q=0). */
function accepts(header: string, coding: string): boolean {
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (name?.trim().toLowerCase() !== coding) continue
    return !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))
  }
  return false
}
