import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { type ErrorCode, errorText } from '@numisma/contracts/errors'
import type { FastifyInstance } from 'fastify'

/**
 * How long a client may hold a connection, so a slow client (one byte a second) cannot keep one,
 * and its memory, forever. Phones on mobile networks are slow, not still: 15 s for the headers is
 * generous. The whole request gets 120 s because some bodies are large — a 4 MB receipt or chat
 * photo from a phone on a weak uplink (~0.3 Mbit/s), a 21 MB catalogue photo from the console.
 */
export interface HttpTimeouts {
  /** The whole request, headers and body (Node's requestTimeout): 408 after it. */
  requestMs: number
  /** The headers (Node's headersTimeout); never longer than requestMs. */
  headersMs: number
  /** A socket with no traffic at all (Fastify's connectionTimeout). */
  idleMs: number
  /** An idle kept-alive connection between requests. */
  keepAliveMs: number
  /** How often Node looks for requests past their time (connectionsCheckingInterval). */
  checkIntervalMs: number
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  requestMs: 120_000,
  headersMs: 15_000,
  // Longer than the idle timeout of the usual proxies (60 s), so they never reuse a connection
  // this server is closing (Fastify's default); the idle limit is above it.
  keepAliveMs: 72_000,
  idleMs: 90_000,
  checkIntervalMs: 5_000,
}

interface ClientError extends Error {
  code?: string
}

const TIMED_OUT = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'ERR_HTTP_HEADERS_TIMEOUT'])

function refusalOf(error: ClientError): { status: number; code: ErrorCode } {
  if (TIMED_OUT.has(error.code ?? '')) return { status: 408, code: 'REQUEST_TIMEOUT' }
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'HEADERS_TOO_LARGE' }
  return { status: 400, code: 'VALIDATION_FAILED' }
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (a bad method, header or request
 * line, oversized headers, a request past its time) gets the same `{code, message}` as every
 * other refusal, then the connection is closed: the parser cannot find the next request in it.
 * No request was parsed, so no locale: the default's texts.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: ClientError,
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const { status, code } = refusalOf(error)
  // The code alone: the error's `rawPacket` is the request's bytes, cookie and Authorization too.
  this.log.debug({ reason: error.code, status }, 'client error')
  // A response already under way cannot be replaced by another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && inFlight?.headersSent !== true) {
    const body = JSON.stringify({ code, message: errorText(code) })
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        // Written before Fastify (and helmet) see a request: the headers a JSON refusal needs.
        "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n" +
        'X-Content-Type-Options: nosniff\r\n' +
        'X-Frame-Options: DENY\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy(error)
}
