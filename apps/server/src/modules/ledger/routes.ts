import { BalancesSchema, FinanceTransferSchema } from '@numisma/contracts/account'
import { dataSchema, IdempotencyKeySchema, IdParamSchema } from '@numisma/contracts/api'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireUser } from '../../platform/request-signing'
import type { FinanceService } from './finance-service'

export interface FinanceRouteOptions {
  finance: FinanceService
}

/** The user's own money between balance and deposit (spec §7 "Account"). */
export const financeRoutes: FastifyPluginAsyncZod<FinanceRouteOptions> = async (
  app,
  { finance },
) => {
  app.patch(
    '/user/:userId/@finance',
    {
      schema: {
        tags: ['account'],
        summary:
          'Move money between balance and deposit: a positive amount balance → deposit, a negative one deposit → balance, as far as exposure leaves the deposit free',
        params: z.object({ userId: IdParamSchema }),
        headers: z.object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() }).loose(),
        body: FinanceTransferSchema,
        response: { 200: dataSchema(BalancesSchema) },
      },
    },
    async (request) => {
      const key = request.headers[HEADER.idempotencyKey]
      return {
        data: await finance.move(
          requireUser(request).userId,
          request.params.userId,
          request.body.amount,
          typeof key === 'string' ? key : undefined,
        ),
      }
    },
  )
}
