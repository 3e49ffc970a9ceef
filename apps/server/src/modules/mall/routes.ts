import { dataSchema } from '@numisma/contracts/api'
import {
  MallWatchStateSchema,
  ProductNoParamsSchema,
  WatchedMallItemSchema,
} from '@numisma/contracts/mall'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireUser } from '../../platform/request-signing'
import type { MallService } from './service'

export interface MallRouteOptions {
  service: MallService
}

/** Spec §7 "Products": watching mall items. Both calls are idempotent. */
export const mallRoutes: FastifyPluginAsyncZod<MallRouteOptions> = async (app, { service }) => {
  const tags = ['watch']

  app.post(
    '/mall/attention/:productNo',
    {
      schema: {
        tags,
        summary: 'Watch a mall item',
        params: ProductNoParamsSchema,
        response: { 200: dataSchema(MallWatchStateSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.watch(userId, request.params.productNo) }
    },
  )

  app.post(
    '/mall/cancelAttention/:productNo',
    {
      schema: {
        tags,
        summary: 'Stop watching a mall item',
        params: ProductNoParamsSchema,
        response: { 200: dataSchema(MallWatchStateSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.unwatch(userId, request.params.productNo) }
    },
  )

  app.get(
    '/user/auction/queryUserMallAttentions',
    {
      schema: {
        tags,
        summary: 'The mall items I watch, newest watch first',
        response: { 200: dataSchema(z.array(WatchedMallItemSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.watchedItems(userId) }
    },
  )
}
