import { dataSchema } from '@numisma/contracts/api'
import { ClientConfigSchema, type ClientConfig } from '@numisma/contracts/client-config'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

/** Unsigned process endpoints of DESIGN §9: health for load balancers, the public client config. */
export const systemRoutes: FastifyPluginAsyncZod<{ clientConfig: ClientConfig }> = async (
  app,
  { clientConfig },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: 200 once the server accepts requests',
        response: { 200: dataSchema(z.object({ status: z.literal('ok') })) },
      },
    },
    () => ({ data: { status: 'ok' as const } }),
  )

  app.get(
    '/client-config',
    {
      schema: {
        tags: ['system'],
        summary: 'Public anonymous client configuration (also inlined into the HTML)',
        response: { 200: dataSchema(ClientConfigSchema) },
      },
    },
    (_request, reply) => {
      void reply.header('cache-control', 'no-store')
      return { data: clientConfig }
    },
  )
}
