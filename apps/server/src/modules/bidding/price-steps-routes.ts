import { dataSchema } from '@numisma/contracts/api'
import { PriceStepSchema } from '@numisma/contracts/bidding'
import { PriceStepTableSchema } from '@numisma/contracts/staff-settings'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { auditTrail } from '../staff/access'
import type { PriceStepsService } from './price-steps-service'

/** The increment table for cataloguers (issue 12): read it, replace it whole. */
export const priceStepsStaffRoutes: FastifyPluginAsyncZod<{ service: PriceStepsService }> = async (
  app,
  { service },
) => {
  const tags = ['staff']
  const config = { staffRoles: ['cataloguer'] } as const

  app.get(
    '/price-steps',
    {
      config,
      schema: {
        tags,
        summary: 'The increment table bids are judged by',
        response: { 200: dataSchema(z.array(PriceStepSchema)) },
      },
    },
    async () => ({ data: await service.current() }),
  )

  app.put(
    '/price-steps',
    {
      config,
      schema: {
        tags,
        summary: 'Replace the increment table (every row, in one transaction)',
        body: PriceStepTableSchema,
        response: { 200: dataSchema(z.array(PriceStepSchema)) },
      },
    },
    async (request) => {
      auditTrail(request, { target: 'price-steps' })
      const { before, after } = await service.replace(request.body)
      auditTrail(request, { target: 'price-steps', before, after })
      return { data: after }
    },
  )
}
