import {
  AccountSettingsSchema,
  SetPayPasswordResultSchema,
  SetPayPasswordSchema,
} from '@numisma/contracts/account'
import { dataSchema } from '@numisma/contracts/api'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { requireUser } from '../../platform/request-signing'
import type { AccountService } from './service'

export interface AccountRouteOptions {
  service: AccountService
  /** Calls of `POST /user/@setPayPass` per user in 15 minutes (DESIGN §3: rate-limited). */
  setPayPasswordLimit: number
}

export const accountRoutes: FastifyPluginAsyncZod<AccountRouteOptions> = async (app, opts) => {
  const { service } = opts

  app.get(
    '/user/@accountSeting',
    {
      schema: {
        tags: ['account'],
        summary: 'Whether the payment password is set, and until when payment is locked',
        response: { 200: dataSchema(AccountSettingsSchema) },
      },
    },
    async (request) => ({ data: await service.settings(requireUser(request).userId) }),
  )

  app.post(
    '/user/@setPayPass',
    {
      config: {
        // preHandler: the signature check (onRequest) has named the caller by then.
        rateLimit: {
          max: opts.setPayPasswordLimit,
          timeWindow: '15 minutes',
          keyGenerator: (request) =>
            request.caller?.kind === 'user'
              ? `pay-password:${request.caller.userId}`
              : `pay-password-ip:${request.ip}`,
          hook: 'preHandler',
        },
      },
      schema: {
        tags: ['account'],
        summary:
          'Set the payment password (six digits); changing it needs the old one or an SMS code sent to the own mobile by POST /passport/sms',
        body: SetPayPasswordSchema,
        response: { 200: dataSchema(SetPayPasswordResultSchema) },
      },
    },
    async (request) => ({
      data: await service.setPayPassword(requireUser(request).userId, request.body),
    }),
  )
}
