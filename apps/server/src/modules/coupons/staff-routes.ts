import { dataSchema } from '@numisma/contracts/api'
import { IdPathSchema, StaffCouponSchema } from '@numisma/contracts/staff-settings'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { auditTrail } from '../staff/access'
import type { StaffCouponService } from './staff-service'

/** Staff's coupon list and stopping an issue (issue 12); creating is POST /admin/coupons. */
export const staffCouponRoutes: FastifyPluginAsyncZod<{ service: StaffCouponService }> = async (
  app,
  { service },
) => {
  const tags = ['staff']
  const config = { staffRoles: ['cataloguer'] } as const

  app.get(
    '/coupons',
    {
      config,
      schema: {
        tags,
        summary: 'Every coupon, newest first, with received, held and used counts',
        response: { 200: dataSchema(z.array(StaffCouponSchema)) },
      },
    },
    async () => ({ data: await service.list() }),
  )

  app.post(
    '/coupons/:id/stop',
    {
      config,
      schema: {
        tags,
        summary: 'Stop issuing a coupon (received ones keep their terms)',
        params: IdPathSchema,
        response: {
          200: dataSchema(z.object({ total: z.number().int(), received: z.number().int() })),
        },
      },
    },
    async (request) => {
      auditTrail(request, { target: `coupon:${request.params.id}` })
      const { before, after } = await service.stopIssue(request.params.id)
      auditTrail(request, { target: `coupon:${request.params.id}`, before, after })
      return { data: after }
    },
  )
}
