import { dataSchema } from '@numisma/contracts/api'
import {
  BidRecordSchema,
  BidRequestSchema,
  BidResultSchema,
  CancelProxyRequestSchema,
  EntrustStateSchema,
  TradeStateSchema,
} from '@numisma/contracts/bidding'
import { LotCardSchema } from '@numisma/contracts/catalog'
import { HEADER } from '@numisma/contracts/signing'
import { lotStatus } from '@numisma/domain/lot-status'
import { type EntrustState, entrustState, tradeState } from '@numisma/domain/my-bids'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { requireUser } from '../../platform/request-signing'
import { toLotCard } from '../catalog/mappers'
import type { LotRow } from '../catalog/repository'
import { maskBidder } from './mask'
import type { BiddingReads } from './reads-repository'
import type { BiddingService } from './service'

const IdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
})
const UserParams = z.object({ userId: z.coerce.number().int().positive() })
const IdempotencyKey = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[\w-]+$/)

const EntrustSchema = LotCardSchema.extend({
  maxAmount: z.number().int(),
  state: EntrustStateSchema,
  updatedAt: z.string(),
})
const TradeSchema = LotCardSchema.extend({ state: TradeStateSchema, myHighest: z.number().int() })

export interface BiddingRouteOptions {
  service: BiddingService
  mine: BiddingReads
  clock: Clock
}

const timing = (r: LotRow) => ({
  status: r.status,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  price: r.price,
  leaderId: r.leader_id,
  reservePrice: r.reserve_price,
})

/** The caller may only read their own lists; another user's id is a 403, not a leak. */
function requireSelf(callerId: number, userId: number): void {
  if (callerId !== userId) throw new AppError('FORBIDDEN')
}

export const biddingRoutes: FastifyPluginAsyncZod<BiddingRouteOptions> = async (app, opts) => {
  const { service, mine, clock } = opts
  const tags = ['bidding']

  app.post(
    '/bidding/bid',
    {
      schema: {
        tags,
        summary: 'Place a direct bid, or a proxy bid with maximum `amount` (fen)',
        body: BidRequestSchema,
        headers: z.object({ [HEADER.idempotencyKey]: IdempotencyKey.optional() }).loose(),
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
        response: {
          200: dataSchema(z.array(z.object({ from: z.number().int(), step: z.number().int() }))),
        },
      },
    },
    async () => ({
      data: (await mine.priceSteps()).map((r) => ({ from: r.from_amount, step: r.step })),
    }),
  )

  app.get(
    '/bidding/:id',
    {
      schema: {
        tags,
        summary: 'Bid history of a lot, newest first, bidders masked but for the caller',
        params: IdParams,
        response: { 200: dataSchema(z.array(BidRecordSchema)) },
      },
    },
    async (request) => {
      const viewer = request.caller?.kind === 'user' ? request.caller.userId : null
      if (!(await mine.lotExists(request.params.id))) {
        throw new AppError('NOT_FOUND', { lotId: request.params.id })
      }
      const rows = await mine.bidHistory(request.params.id, 200)
      return {
        data: rows.map((r) => ({
          bidder: r.user_id === viewer ? r.display : maskBidder(r.display),
          amount: r.amount,
          auto: r.auto === 1,
          at: new Date(r.created_at).toISOString(),
          mine: r.user_id === viewer,
        })),
      }
    },
  )

  app.post(
    '/bidding/cancelProxy',
    {
      schema: {
        tags,
        summary: 'Stop a proxy bid; bids already placed stand',
        body: CancelProxyRequestSchema,
        response: {
          200: dataSchema(z.object({ lotId: z.number().int(), cancelled: z.literal(true) })),
        },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.cancelProxy(userId, request.body.lotId) }
    },
  )

  const stateOfProxy = (
    row: Awaited<ReturnType<BiddingReads['proxiesOf']>>[number],
    userId: number,
  ) =>
    entrustState(
      lotStatus(timing(row), clock.now()),
      row.leader_id === userId,
      row.cancelled_at !== null,
    )

  app.get(
    '/user/:userId/@entrust',
    {
      schema: {
        tags,
        summary: 'My proxy bids, newest first, optionally by state',
        params: UserParams,
        querystring: z.object({ state: EntrustStateSchema.optional() }),
        response: { 200: dataSchema(z.array(EntrustSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      requireSelf(userId, request.params.userId)
      const now = clock.now()
      const rows = await mine.proxiesOf(userId)
      const items = rows.map((row) => ({
        ...toLotCard(row, now),
        maxAmount: row.max_amount,
        state: stateOfProxy(row, userId),
        updatedAt: new Date(row.proxy_updated_at).toISOString(),
      }))
      return {
        data: request.query.state ? items.filter((i) => i.state === request.query.state) : items,
      }
    },
  )

  app.get(
    '/user/queryEntrustSortTotal',
    {
      schema: {
        tags,
        summary: 'How many proxy bids I have in each state',
        response: { 200: dataSchema(z.record(EntrustStateSchema, z.number().int())) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      const counts: Record<EntrustState, number> = {
        active: 0,
        outbid: 0,
        won: 0,
        lost: 0,
        cancelled: 0,
      }
      for (const row of await mine.proxiesOf(userId)) counts[stateOfProxy(row, userId)]++
      return { data: counts }
    },
  )

  app.get(
    '/user/:userId/@trade',
    {
      schema: {
        tags,
        summary: 'Lots I have bid on: leading, outbid, won, lost',
        params: UserParams,
        querystring: z.object({ state: TradeStateSchema.optional() }),
        response: { 200: dataSchema(z.array(TradeSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      requireSelf(userId, request.params.userId)
      const now = clock.now()
      const items = (await mine.lotsBidOn(userId)).map((row) => {
        const card = toLotCard(row, now)
        const state = tradeState(card.status, row.leader_id === userId)
        return { ...card, state, myHighest: row.my_highest ?? 0 }
      })
      return {
        data: request.query.state ? items.filter((i) => i.state === request.query.state) : items,
      }
    },
  )

  app.post(
    '/auction/:id/@attention',
    {
      schema: {
        tags: ['watch'],
        summary: 'Watch a lot',
        params: IdParams,
        response: { 200: dataSchema(z.object({ lotId: z.number().int(), watching: z.boolean() })) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      if (!(await mine.lotExists(request.params.id))) throw new AppError('NOT_FOUND')
      await mine.watch(userId, request.params.id, clock.now())
      return { data: { lotId: request.params.id, watching: true } }
    },
  )

  app.delete(
    '/auction/:id/@attention',
    {
      schema: {
        tags: ['watch'],
        summary: 'Stop watching a lot',
        params: IdParams,
        response: { 200: dataSchema(z.object({ lotId: z.number().int(), watching: z.boolean() })) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      await mine.unwatch(userId, request.params.id)
      return { data: { lotId: request.params.id, watching: false } }
    },
  )

  app.get(
    '/auction/:ids/@attention',
    {
      schema: {
        tags: ['watch'],
        summary: 'Watch state of up to 100 lots (comma-separated ids)',
        params: z.object({ ids: z.string().regex(/^\d{1,10}(,\d{1,10}){0,99}$/) }),
        querystring: z.object({ userId: z.coerce.number().int().positive().optional() }),
        response: {
          200: dataSchema(z.array(z.object({ lotId: z.number().int(), watching: z.boolean() }))),
        },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      if (request.query.userId !== undefined) requireSelf(userId, request.query.userId)
      const ids = [...new Set(request.params.ids.split(',').map(Number))]
      const watched = await mine.watchedAmong(userId, ids)
      return { data: ids.map((lotId) => ({ lotId, watching: watched.has(lotId) })) }
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
      const now = clock.now()
      return { data: (await mine.watchedLots(userId)).map((row) => toLotCard(row, now)) }
    },
  )
}
