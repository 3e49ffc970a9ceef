import { dataSchema } from '@numisma/contracts/api'
import { COOKIE, COOKIE_MAX_AGE_SECONDS, LOGIN_COOKIES } from '@numisma/contracts/cookies'
import {
  LoginRequestSchema,
  LoginResultSchema,
  SmsRequestSchema,
  SmsResponseSchema,
} from '@numisma/contracts/passport'
import type { CookieSerializeOptions } from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../platform/errors'
import type { LoginOutcome, PassportService } from './service'

export interface PassportRouteOptions {
  service: PassportService
  rateLimit: { sms: number; smsPerCaller: number; login: number }
}

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

/** The cookies of spec §3 plus the HttpOnly `sid` that binds the readable pair (DESIGN §3). */
function setLoginCookies(request: FastifyRequest, reply: FastifyReply, login: LoginOutcome): void {
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

function clearLoginCookies(reply: FastifyReply): void {
  for (const name of [...LOGIN_COOKIES, COOKIE.sid]) reply.clearCookie(name, { path: '/' })
}

const perMobile = (request: FastifyRequest): string => {
  const body = request.body as { mobile?: unknown } | undefined
  return `${request.ip}:${typeof body?.mobile === 'string' ? body.mobile : ''}`
}

export const passportRoutes: FastifyPluginAsyncZod<PassportRouteOptions> = async (app, opts) => {
  const { service } = opts
  const smsPerCaller = app.createRateLimit({
    max: opts.rateLimit.smsPerCaller,
    timeWindow: '1 hour',
    keyGenerator: (request) => `sms-caller:${request.ip}`,
  })

  app.post(
    '/passport/sms',
    {
      // Also per caller across numbers: texts cost money, and a script could send to many numbers.
      // (The plugin runs one limiter per request, so this second one is checked by hand.)
      onRequest: async (request) => {
        const limit = await smsPerCaller(request)
        if (!limit.isAllowed && limit.isExceeded) {
          throw new AppError('RATE_LIMITED', { retryAfterSeconds: limit.ttlInSeconds })
        }
      },
      config: {
        // preHandler: the key needs the parsed body (the mobile number).
        rateLimit: {
          max: opts.rateLimit.sms,
          timeWindow: '1 hour',
          keyGenerator: perMobile,
          hook: 'preHandler',
        },
      },
      schema: {
        tags: ['passport'],
        summary: 'Send a sign-in code by SMS (sandbox sender)',
        body: SmsRequestSchema,
        response: { 200: SmsResponseSchema },
      },
    },
    async (request) => ({ data: await service.sendCode(request.body.mobile) }),
  )

  app.post(
    '/passport/login',
    {
      // Per caller and number: many users share one carrier-grade NAT address.
      config: {
        rateLimit: {
          max: opts.rateLimit.login,
          timeWindow: '15 minutes',
          keyGenerator: perMobile,
          hook: 'preHandler',
        },
      },
      schema: {
        tags: ['passport'],
        summary: 'Sign in with mobile and SMS code; a new number creates an account',
        body: LoginRequestSchema,
        response: { 200: dataSchema(LoginResultSchema) },
      },
    },
    async (request, reply) => {
      const deviceId = request.caller?.deviceId ?? ''
      const login = await service.login(request.body.mobile, request.body.code, deviceId)
      setLoginCookies(request, reply, login)
      const { sid: _sid, loginTime: _loginTime, ...data } = login
      return { data }
    },
  )

  app.post(
    '/passport/logout',
    {
      schema: {
        tags: ['passport'],
        summary: 'End the session and clear the login cookies',
        response: { 200: dataSchema(z.object({ loggedOut: z.literal(true) })) },
      },
    },
    async (request, reply) => {
      if (request.caller?.kind === 'user') await service.logout(request.caller.sessionId)
      clearLoginCookies(reply)
      return { data: { loggedOut: true as const } }
    },
  )
}
