import { dataSchema } from '@numisma/contracts/api'
import {
  NoticesPageSchema,
  NoticesQuerySchema,
  NoticesReadSchema,
  NoticesUnreadSchema,
} from '@numisma/contracts/notices'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { requireUser } from '../../platform/request-signing'
import type { NoticesService } from './service'

/** The user's notices (issue 9, DESIGN §4): only ever the caller's own. */
export const noticesRoutes: FastifyPluginAsyncZod<{ service: NoticesService }> = async (
  app,
  { service },
) => {
  const tags = ['account']

  app.get(
    '/user/notices',
    {
      schema: {
        tags,
        summary: "The caller's notices, newest first, a page at a time",
        querystring: NoticesQuerySchema,
        response: { 200: NoticesPageSchema },
      },
    },
    async (request) => service.list(requireUser(request).userId, request.query),
  )

  app.post(
    '/user/notices/read',
    {
      schema: {
        tags,
        summary:
          "Marks the caller's notices of `ids` (without ids: all) read; others' ids are passed over",
        body: NoticesReadSchema,
        response: { 200: dataSchema(NoticesUnreadSchema) },
      },
    },
    async (request) => ({
      data: await service.markRead(requireUser(request).userId, request.body.ids),
    }),
  )
}
