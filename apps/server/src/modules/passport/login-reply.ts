import { COOKIE, COOKIE_MAX_AGE_SECONDS, LOGIN_COOKIES } from '@numisma/contracts/cookies'
import type { CookieSerializeOptions } from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { LoginOutcome } from './service'

/**
 * What a sign-in answers, whichever way it came (SMS code, the messaging platform's OAuth and its
 * binding, modules/wechat): the same cookies and the same rate-limit key, so the ways cannot
 * drift apart.
 */
const secure = (request: FastifyRequest): boolean => request.protocol === 'https'

function cookieOptions(request: FastifyRequest, httpOnly: boolean): CookieSerializeOptions {
  return {
    path: '/',
    maxAge: COOKIE_MAX_AGE_SECONDS,
    sameSite: 'lax',
    secure: secure(request),
    httpOnly,
  }
}

/** A reply carrying a session key or a bind token is kept by no cache, shared or the browser's. */
export function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store')
}

/**
 * The cookies of spec §3 plus the HttpOnly `sid` that binds the readable pair (DESIGN §3); the
 * reply is no-store, as its body carries the session key.
 */
export function setLoginCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  login: LoginOutcome,
): void {
  noStore(reply)
  reply.setCookie(COOKIE.sid, login.sid, cookieOptions(request, true))
  const readable = cookieOptions(request, false)
  reply.setCookie(COOKIE.id, login.id, readable)
  reply.setCookie(COOKIE.key, login.key, readable)
  reply.setCookie(COOKIE.userId, login.userId, readable)
  reply.setCookie(COOKIE.display, login.display, readable)
  reply.setCookie(COOKIE.mobile, login.mobile, readable)
  reply.setCookie(COOKIE.agreement, '1', readable)
  reply.setCookie(COOKIE.loginTime, String(login.loginTime), readable)
}

export function clearLoginCookies(reply: FastifyReply): void {
  for (const name of [...LOGIN_COOKIES, COOKIE.sid]) reply.clearCookie(name, { path: '/' })
}

/** The login's public part: the session's cookie-only fields stay out of the body. */
export function loginBody({ sid: _sid, loginTime: _loginTime, ...data }: LoginOutcome) {
  return data
}

/** Per caller and number: many users share one carrier-grade NAT address. */
export const perMobile = (request: FastifyRequest): string => {
  const body = request.body as { mobile?: unknown } | undefined
  return `${request.ip}:${typeof body?.mobile === 'string' ? body.mobile : ''}`
}
