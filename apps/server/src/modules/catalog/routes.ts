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
import { watchLots } from '../../platform/read-cache'
import { CACHE_CONTROL, sendPersonal, sendPrepared } from '../../platform/read-cache-http'
import { CatalogReads } from './cached-reads'
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
  // Public reads serialised once and kept; lot events (every instance's, over the bus) drop what
  // shows the lot (ADR 033).
  const reads = new CatalogReads(service, clock)
  const unwatch = watchLots(app.bus, (event) => reads.lotChanged(event.lotId))
  const unedit = service.onEdit(() => reads.clear())
  app.addHook('onClose', async () => {
    unwatch()
    unedit()
  })

  app.get(
    '/meta/@category',
    {
      schema: {
        tags,
        summary: 'Auction categories',
        response: { 200: dataSchema(z.array(CategorySchema)) },
      },
    },
    async (request, reply) =>
      sendPrepared(request, reply, await reads.categories(), CACHE_CONTROL.settings),
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
    async (request, reply) =>
      sendPrepared(request, reply, await reads.mallCategoryTree(), CACHE_CONTROL.settings),
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
    async (request, reply) =>
      sendPrepared(
        request,
        reply,
        await reads.banners(Number(request.params.position)),
        CACHE_CONTROL.settings,
      ),
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
    async (request, reply) =>
      sendPrepared(request, reply, await reads.specials(), CACHE_CONTROL.live),
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
    async (request, reply) =>
      sendPrepared(request, reply, await reads.special(request.params.id), CACHE_CONTROL.live),
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
    (_request, reply) => {
      const now = clock.now()
      void reply.header('cache-control', 'no-store')
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
    async (request, reply) => {
      const caller = request.caller
      const id = request.params.id
      if (caller?.kind !== 'user') {
        return sendPrepared(request, reply, await reads.lot(id), CACHE_CONTROL.live)
      }
      // The lot first: an unknown lot is a 404 before the stake is looked up.
      const [, stake] = await Promise.all([reads.lot(id), opts.viewerOf(id, caller.userId)])
      return sendPersonal(reply, {
        data: await reads.lotFor(id, { userId: caller.userId, ...stake }),
      })
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
