import { LotCardSchema, MallItemCardSchema, SearchQuerySchema } from '@numisma/contracts/catalog'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { watchLots } from '../../platform/read-cache'
import { CACHE_CONTROL, sendPrepared } from '../../platform/read-cache-http'
import type { SearchService } from './service'

const PageSchema = z.object({
  data: z.union([z.array(LotCardSchema), z.array(MallItemCardSchema)]),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
})

export const searchRoutes: FastifyPluginAsyncZod<{ service: SearchService }> = async (
  app,
  { service },
) => {
  // Bids reach the lists at once, from every instance (ADR 033).
  const unwatch = watchLots(app.bus, (event) => service.lotChanged(event))
  app.addHook('onClose', async () => unwatch())
  app.get(
    '/api/search/wechat',
    {
      schema: {
        tags: ['search'],
        summary:
          'The buying list (type=auction) and the mall list (type=mall), with keyword search',
        querystring: SearchQuerySchema,
        response: { 200: PageSchema },
      },
    },
    async (request, reply) =>
      sendPrepared(request, reply, await service.searchPrepared(request.query), CACHE_CONTROL.live),
  )
}
