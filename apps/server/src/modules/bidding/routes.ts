import {
  dataSchema,
  ID_MAX,
  IdempotencyKeySchema,
  IdParamSchema,
  idListPattern,
  IdParamsSchema as IdParams,
  pageSchema,
} from '@numisma/contracts/api'
import {
  BidHistoryQuerySchema,
  BidRecordSchema,
  BidRequestSchema,
  BidResultSchema,
  CancelProxyRequestSchema,
  CancelProxyResultSchema,
  EntrustCountsSchema,
  EntrustQuerySchema,
  EntrustSchema,
  PriceStepSchema,
  TradeQuerySchema,
  TradeSchema,
  WatchStateSchema,
} from '@numisma/contracts/bidding'
import { LotCardSchema } from '@numisma/contracts/catalog'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../platform/errors'
import { requireUser } from '../../platform/request-signing'
import type { BiddingService } from './service'

const UserParams = z.object({ userId: IdParamSchema })

export interface BiddingRouteOptions {
  service: BiddingService
}

/** The caller may only read their own lists; another user's id answers 404 (DESIGN §9). */
function requireSelf(callerId: number, userId: number): void {
  if (callerId !== userId) throw new AppError('NOT_FOUND')
}

export const biddingRoutes: FastifyPluginAsyncZod<BiddingRouteOptions> = async (app, opts) => {
  const { service } = opts
  const tags = ['bidding']

  app.post(
    '/bidding/bid',
    {
      schema: {
        tags,
        summary: 'Place a direct bid, or a proxy bid with maximum `amount` (fen)',
        body: BidRequestSchema,
        headers: z.object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() }).loose(),
        response: { 200: dataSchema(BidResultSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      const key = request.headers[HEADER.idempotencyKey]
      return {
        data: await service.bid(userId, request.body, typeof key === 'string' ? key : undefined),
      }
    },
  )

  app.get(
    '/bidding/price-step',
    {
      schema: {
        tags,
        summary: 'The increment table (fen)',
        response: { 200: dataSchema(z.array(PriceStepSchema)) },
      },
    },
    async () => ({ data: await service.priceSteps() }),
  )

  app.get(
    '/bidding/:id',
    {
      schema: {
        tags,
        summary:
          'Bid history of a lot, newest first, a page at a time; bidders masked but for the caller',
        params: IdParams,
        querystring: BidHistoryQuerySchema,
        response: { 200: pageSchema(BidRecordSchema) },
      },
    },
    async (request) => {
      const viewer = request.caller?.kind === 'user' ? request.caller.userId : null
      return service.history(request.params.id, viewer, request.query)
    },
  )

  app.post(
    '/bidding/cancelProxy',
    {
      schema: {
        tags,
        summary: 'Stop a proxy bid; bids already placed stand',
        body: CancelProxyRequestSchema,
        response: { 200: dataSchema(CancelProxyResultSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.cancelProxy(userId, request.body.lotId) }
    },
  )

  app.get(
    '/user/:userId/@entrust',
    {
      schema: {
        tags,
        summary: 'My proxy bids, newest first, optionally by state',
        params: UserParams,
        querystring: EntrustQuerySchema,
        response: { 200: dataSchema(z.array(EntrustSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      requireSelf(userId, request.params.userId)
      return { data: await service.proxyBids(userId, request.query.state) }
    },
  )

  app.get(
    '/user/queryEntrustSortTotal',
    {
      schema: {
        tags,
        summary: 'How many proxy bids I have in each state',
        response: { 200: dataSchema(EntrustCountsSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.proxyBidCounts(userId) }
    },
  )

  app.get(
    '/user/:userId/@trade',
    {
      schema: {
        tags,
        summary: 'Lots I have bid on: leading, outbid, won, lost',
        params: UserParams,
        querystring: TradeQuerySchema,
        response: { 200: dataSchema(z.array(TradeSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      requireSelf(userId, request.params.userId)
      return { data: await service.trades(userId, request.query.state) }
    },
  )

  app.post(
    '/auction/:id/@attention',
    {
      schema: {
        tags: ['watch'],
        summary: 'Watch a lot',
        params: IdParams,
        response: { 200: dataSchema(WatchStateSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.watch(userId, request.params.id) }
    },
  )

  app.delete(
    '/auction/:id/@attention',
    {
      schema: {
        tags: ['watch'],
        summary: 'Stop watching a lot',
        params: IdParams,
        response: { 200: dataSchema(WatchStateSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.unwatch(userId, request.params.id) }
    },
  )

  app.get(
    '/auction/:ids/@attention',
    {
      schema: {
        tags: ['watch'],
        summary: 'Watch state of up to 100 lots (comma-separated ids)',
        params: z.object({
          ids: z
            .string()
            .regex(idListPattern(100))
            .transform((ids) => ids.split(',').map(Number))
            .refine((ids) => ids.every((id) => id > 0 && id <= ID_MAX), 'an id is out of range'),
        }),
        querystring: z.object({ userId: IdParamSchema.optional() }),
        response: { 200: dataSchema(z.array(WatchStateSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      if (request.query.userId !== undefined) requireSelf(userId, request.query.userId)
      return { data: await service.watchStates(userId, request.params.ids) }
    },
  )

  app.get(
    '/user/auction/queryUserAttentions',
    {
      schema: {
        tags: ['watch'],
        summary: 'The lots I watch',
        response: { 200: dataSchema(z.array(LotCardSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.watchedLots(userId) }
    },
  )
}
