import { dataSchema, IdParamsSchema as IdParams } from '@numisma/contracts/api'
import {
  BannerSchema,
  CategorySchema,
  LotDetailSchema,
  MallCategoryNodeSchema,
  MallItemDetailSchema,
  ServerTimeSchema,
  SpecialDetailSchema,
  SpecialSummarySchema,
} from '@numisma/contracts/catalog'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Clock } from '../../platform/clock'
import type { CatalogService } from './service'

export interface CatalogRouteOptions {
  service: CatalogService
  clock: Clock
  /** The caller's stake in a lot (proxy maximum, winner's order), from the bidding module. */
  viewerOf: (
    lotId: number,
    userId: number,
  ) => Promise<{ myMax: number | null; orderId: number | null }>
  /** The caller's own view of a mall item (their watch, units ordered), from the mall module. */
  mallViewerOf: (
    productNo: string,
    userId: number,
  ) => Promise<{ watched: boolean; boughtByMe: number }>
}

/** Spec §7 "Home and info" and the item pages. Anonymous callers may read all of it. */
export const catalogRoutes: FastifyPluginAsyncZod<CatalogRouteOptions> = async (app, opts) => {
  const { service, clock } = opts
  const tags = ['catalogue']

  app.get(
    '/meta/@category',
    {
      schema: {
        tags,
        summary: 'Auction categories',
        response: { 200: dataSchema(z.array(CategorySchema)) },
      },
    },
    async () => ({ data: await service.categories() }),
  )

  app.get(
    '/mall/categoryTree',
    {
      schema: {
        tags,
        summary: 'The mall category tree',
        response: { 200: dataSchema(z.array(MallCategoryNodeSchema)) },
      },
    },
    async () => ({ data: await service.mallCategoryTree() }),
  )

  app.get(
    '/mall/advertis/:position',
    {
      schema: {
        tags,
        summary: 'Banners: 0 = home, 1 = category page',
        params: z.object({ position: z.enum(['0', '1']) }),
        response: { 200: dataSchema(z.array(BannerSchema)) },
      },
    },
    async (request) => ({ data: await service.banners(Number(request.params.position)) }),
  )

  app.get(
    '/special/V1',
    {
      schema: {
        tags,
        summary: 'Live and upcoming specials (the home list)',
        response: { 200: dataSchema(z.array(SpecialSummarySchema)) },
      },
    },
    async () => ({ data: await service.specials() }),
  )

  app.get(
    '/special/:id',
    {
      schema: {
        tags,
        summary: 'One special with its lots in lot order',
        params: IdParams,
        response: { 200: dataSchema(SpecialDetailSchema) },
      },
    },
    async (request) => ({ data: await service.special(request.params.id) }),
  )

  app.get(
    '/pub/@time',
    {
      schema: {
        tags,
        summary: 'Server time, for countdowns',
        response: { 200: dataSchema(ServerTimeSchema) },
      },
    },
    () => {
      const now = clock.now()
      return { data: { now: new Date(now).toISOString(), timestamp: now } }
    },
  )

  app.get(
    '/auction/:id',
    {
      schema: {
        tags,
        summary: 'An auction lot with its live state for the caller',
        params: IdParams,
        response: { 200: dataSchema(LotDetailSchema) },
      },
    },
    async (request) => {
      const caller = request.caller
      const userId = caller?.kind === 'user' ? caller.userId : null
      const stake =
        userId === null
          ? { myMax: null, orderId: null }
          : await opts.viewerOf(request.params.id, userId)
      return { data: await service.lot(request.params.id, { userId, ...stake }) }
    },
  )

  app.get(
    '/mallproduct/getMallByProductNo/:id',
    {
      schema: {
        tags,
        summary: 'A mall item by its product number',
        params: z.object({
          id: z
            .string()
            .min(1)
            .max(32)
            .regex(/^[A-Za-z0-9_-]+$/),
        }),
        response: { 200: dataSchema(MallItemDetailSchema) },
      },
    },
    async (request) => {
      const caller = request.caller
      const viewer =
        caller?.kind === 'user'
          ? await opts.mallViewerOf(request.params.id, caller.userId)
          : { watched: false, boughtByMe: 0 }
      return { data: await service.mallItem(request.params.id, viewer) }
    },
  )
}
