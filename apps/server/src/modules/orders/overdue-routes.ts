import { ForfeitSchema } from '@numisma/contracts/account'
import { dataSchema, IdempotencyKeySchema, IdParamsSchema } from '@numisma/contracts/api'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ForfeitService } from './overdue'

export interface OverdueStaffRouteOptions {
  forfeits: ForfeitService
}

/** Staff's call on an overdue winner (DESIGN §4), inside the staff session scope. */
export const overdueStaffRoutes: FastifyPluginAsyncZod<OverdueStaffRouteOptions> = async (
  app,
  { forfeits },
) => {
  app.post(
    '/orders/:id/forfeit',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags: ['staff'],
        summary:
          "Take an overdue winner's deposit for the lot, up to the hammer price, once; the order closes as cancelled (ORDER_NOT_OVERDUE, NOT_PENDING)",
        params: IdParamsSchema,
        headers: z.object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() }).loose(),
        response: { 200: dataSchema(ForfeitSchema) },
      },
    },
    async (request) => {
      const key = request.headers[HEADER.idempotencyKey]
      return {
        data: await forfeits.forfeit(request.params.id, {
          idempotencyOwner: -(request.staff?.staffId ?? 0),
          idempotencyKey: typeof key === 'string' ? key : undefined,
        }),
      }
    },
  )
}
