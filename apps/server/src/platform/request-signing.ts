import { COOKIE } from '@numisma/contracts/cookies'
import {
  constantTimeEqual,
  HEADER,
  parseAuthorization,
  signedPath,
  TIMESTAMP_TOLERANCE_MS,
} from '@numisma/contracts/signing'
import type {} from '@fastify/cookie' // request.cookies
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from './clock'
import { hmacSignatureNative, sha256Hex, xSignNative } from './crypto'
import { AppError } from './errors'
import type { NonceStore } from './nonce-store'
import type { PublicApps } from './public-apps'

/** Who is calling, once the signature of DESIGN §3 has been verified. */
export type Caller =
  | { kind: 'anonymous'; appId: string; deviceId: string }
  | { kind: 'user'; appId: string; deviceId: string; userId: number; sessionId: string }

export interface SessionCredential {
  id: string
  userId: number
  key: string
  sidHash: string
  expiresAt: number
  revokedAt: number | null
}

export interface SigningDeps {
  apps: PublicApps
  clock: Clock
  nonces: NonceStore
  findSession(id: string): Promise<SessionCredential | undefined>
}

export type ServiceRole = 'main' | 'search'

/** Session credentials are told apart from the public pairs by this prefix. */
export const SESSION_APP_PREFIX = 's_'

interface SignedRequest {
  method: string
  /** The URL after the service base, e.g. `/auction/42?x=1`. */
  pathAfterBase: string
  headers: Record<string, string | string[] | undefined>
  sidCookie: string | undefined
}

const header = (req: SignedRequest, name: string): string | undefined => {
  const v = req.headers[name]
  return typeof v === 'string' && v.length > 0 ? v : undefined
}

export async function verifySignedRequest(
  req: SignedRequest,
  role: ServiceRole,
  deps: SigningDeps,
): Promise<Caller> {
  const appId = header(req, HEADER.appId)
  const deviceId = header(req, HEADER.deviceId)
  const nonce = header(req, HEADER.nonce)
  const timestamp = header(req, HEADER.timestamp)
  const sign = header(req, HEADER.sign)
  const authorization = header(req, HEADER.authorization)
  if (!appId || !deviceId || !nonce || !timestamp || !sign || !authorization) {
    throw new AppError('SIGNATURE_MISSING')
  }
  if (deviceId.length > 128 || nonce.length > 64 || !/^\d{10,16}$/.test(timestamp)) {
    throw new AppError('SIGNATURE_INVALID')
  }
  const parsed = parseAuthorization(authorization)
  if (!parsed || parsed.appId !== appId) throw new AppError('SIGNATURE_INVALID')

  if (Math.abs(deps.clock.now() - Number(timestamp)) > TIMESTAMP_TOLERANCE_MS) {
    throw new AppError('TIMESTAMP_EXPIRED')
  }
  if (!constantTimeEqual(sign, xSignNative(nonce, timestamp, deps.apps.signSecret))) {
    throw new AppError('SIGNATURE_INVALID')
  }

  const publicApp = role === 'main' ? deps.apps.h5 : deps.apps.search
  let session: SessionCredential | undefined
  let key: string
  if (appId === publicApp.id) {
    key = publicApp.key
  } else if (appId.startsWith(SESSION_APP_PREFIX)) {
    session = await deps.findSession(appId)
    if (!session) throw new AppError('SESSION_INVALID')
    key = session.key
  } else {
    throw new AppError('APP_UNKNOWN')
  }

  const expected = hmacSignatureNative(key, req.method, signedPath(req.pathAfterBase), deviceId)
  if (!constantTimeEqual(parsed.signature, expected)) throw new AppError('SIGNATURE_INVALID')

  if (session) {
    const now = deps.clock.now()
    const boundUser = header(req, HEADER.userId) === String(session.userId)
    const boundSid =
      req.sidCookie !== undefined && constantTimeEqual(sha256Hex(req.sidCookie), session.sidHash)
    if (session.revokedAt !== null || session.expiresAt <= now || !boundUser || !boundSid) {
      throw new AppError('SESSION_INVALID')
    }
  }

  // Last, so a forged request cannot burn a genuine client's nonce.
  if (!(await deps.nonces.claim(`${appId}:${nonce}`))) throw new AppError('NONCE_REPLAYED')

  return session
    ? { kind: 'user', appId, deviceId, userId: session.userId, sessionId: session.id }
    : { kind: 'anonymous', appId, deviceId }
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null
  }
}

/** onRequest hook for one service scope (`/svc/main`, `/svc/search`). */
export function signedRequestHook(prefix: string, role: ServiceRole, deps: SigningDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (request.caller) return // already verified (a 404 runs the scope's hooks once more)
    request.caller = await verifySignedRequest(
      {
        method: request.method,
        pathAfterBase: request.url.slice(prefix.length),
        headers: request.headers,
        sidCookie: request.cookies[COOKIE.sid],
      },
      role,
      deps,
    )
  }
}

/** The signed-in user of a request, or 401. */
export function requireUser(request: FastifyRequest): Extract<Caller, { kind: 'user' }> {
  const caller = request.caller
  if (caller?.kind !== 'user') throw new AppError('UNAUTHENTICATED')
  return caller
}
