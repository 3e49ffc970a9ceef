import { dataSchema } from '@numisma/contracts/api'
import {
  LoginRequestSchema,
  LoginResultSchema,
  SmsRequestSchema,
  SmsResponseSchema,
} from '@numisma/contracts/passport'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../platform/errors'
import { clearLoginCookies, loginBody, perMobile, setLoginCookies } from './login-reply'
import type { PassportService } from './service'

export interface PassportRouteOptions {
  service: PassportService
  rateLimit: { sms: number; smsPerCaller: number; login: number }
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
      // (The plugin runs one limiter per request, so this second one is checked by hand.) After
      // validation: a request refused for its body sends nothing and must not count, or 30 typos
      // from a shared carrier address would lock it out of SMS for an hour (issue 15).
      preHandler: async (request) => {
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
        summary: 'Send a sign-in code by SMS (the configured provider, or its sandbox)',
        body: SmsRequestSchema,
        response: { 200: SmsResponseSchema },
      },
    },
    async (request) => ({ data: await service.sendCode(request.body.mobile) }),
  )

  app.post(
    '/passport/login',
    {
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
      return { data: loginBody(login) }
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
