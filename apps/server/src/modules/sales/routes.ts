import { dataSchema, IdParamsSchema } from '@numisma/contracts/api'
import {
  LiveViewSchema,
  OverdueOrderSchema,
  RelistedSchema,
  RelistSchema,
  SaleResultsSchema,
  SalesSpecialSchema,
} from '@numisma/contracts/staff-sales'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { auditTrail, staffIdOf } from '../staff/access'
import type { SalesService } from './service'

export interface SalesRouteOptions {
  service: SalesService
}

/**
 * The console's sales area (issue 12), inside the staff guard: every staff member may watch a
 * sale and read its results; overdue winners are the cashier's (forfeit) and the cataloguer's
 * (relist) work; relisting is the cataloguer's.
 */
export const salesStaffRoutes: FastifyPluginAsyncZod<SalesRouteOptions> = async (
  app,
  { service },
) => {
  const tags = ['staff', 'sales']

  app.get(
    '/sales/specials',
    {
      config: { staffRoles: 'any' },
      schema: {
        tags,
        summary: 'Specials for the sales pages: running first, then upcoming, then closed',
        response: { 200: dataSchema(z.array(SalesSpecialSchema)) },
      },
    },
    async () => ({ data: await service.specials() }),
  )

  app.get(
    '/sales/specials/:id/live',
    {
      config: { staffRoles: 'any' },
      schema: {
        tags,
        summary:
          "A special's lots as they stand: price, bids, watchers, leader, reserve met, end (live view)",
        params: IdParamsSchema,
        response: { 200: dataSchema(LiveViewSchema) },
      },
    },
    async (request) => ({ data: await service.live(request.params.id) }),
  )

  app.get(
    '/sales/specials/:id/results',
    {
      config: { staffRoles: 'any' },
      schema: {
        tags,
        summary: "A special's closing results: per lot sold or unsold, hammer, buyer, order",
        params: IdParamsSchema,
        response: { 200: dataSchema(SaleResultsSchema) },
      },
    },
    async (request) => ({ data: await service.results(request.params.id) }),
  )

  app.get(
    '/sales/specials/:id/results.csv',
    {
      config: { staffRoles: 'any' },
      schema: {
        tags,
        summary: "A special's closing results as a CSV download",
        params: IdParamsSchema,
      },
    },
    async (request, reply) => {
      const { filename, csv } = await service.resultsCsv(request.params.id)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv)
    },
  )

  app.post(
    '/sales/lots/:id/relist',
    {
      config: { staffRoles: ['cataloguer'] },
      schema: {
        tags,
        summary:
          'Relist an unsold or forfeited lot as a new lot in a special that has not closed, once (LOT_NOT_RELISTABLE, LOT_ALREADY_RELISTED, SPECIAL_CLOSED)',
        params: IdParamsSchema,
        body: RelistSchema,
        response: { 200: dataSchema(RelistedSchema) },
      },
    },
    async (request) => {
      const lotId = request.params.id
      auditTrail(request, { target: `lot:${lotId}` })
      const { before, after } = await service.relist(lotId, request.body, staffIdOf(request))
      auditTrail(request, { before, after })
      return { data: after }
    },
  )

  app.get(
    '/sales/overdue',
    {
      config: { staffRoles: ['cashier', 'cataloguer'] },
      schema: {
        tags,
        summary:
          "Overdue winners' orders, and forfeited ones whose lot waits to be relisted, with each winner's deposit",
        response: { 200: dataSchema(z.array(OverdueOrderSchema)) },
      },
    },
    async () => ({ data: await service.overdue() }),
  )
}
