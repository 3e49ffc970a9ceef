import { UserStatisticsResponseSchema } from '@numisma/contracts/user'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { requireUser } from '../../platform/request-signing'
import type { UserService } from './service'

export const userRoutes: FastifyPluginAsyncZod<{ service: UserService }> = async (
  app,
  { service },
) => {
  app.get(
    '/user/@statistics',
    {
      schema: {
        tags: ['account'],
        summary: "The signed-in user's basic data, deposit, quota and exposure",
        response: { 200: UserStatisticsResponseSchema },
      },
    },
    async (request) => ({ data: await service.statistics(requireUser(request).userId) }),
  )
}
