import { dataSchema, IdParamsSchema } from '@numisma/contracts/api'
import {
  LotImportResultSchema,
  LotImportSchema,
  lotImportTemplate,
  LotUpdateSchema,
  SpecialUpdateSchema,
  StaffLotSchema,
  StaffSpecialDetailSchema,
  StaffSpecialPageSchema,
  StaffSpecialSchema,
  StaffSpecialsQuerySchema,
} from '@numisma/contracts/staff-catalogue'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { auditTrail } from '../staff/access'
import type { StaffCatalogueService } from './staff-catalogue-service'

/** The import's CSV (2 MB of text, the contract's bound) and the JSON around it. */
const IMPORT_BODY_LIMIT = 2_200_000

/**
 * The console's catalogue area (issue 12): reads and edits of specials and lots, withdrawals and
 * the bulk lot import; cataloguers (and admins) only. Creating a special or a lot stays with
 * `POST /admin/specials` and `POST /admin/lots` (staff/operations.ts).
 */
export const staffCatalogueRoutes: FastifyPluginAsyncZod<{
  service: StaffCatalogueService
}> = async (app, { service }) => {
  const tags = ['staff']
  const config = { staffRoles: ['cataloguer'] } as const
  // An edit that went through shows in the shop at once on this instance (ADR 033).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) service.announceEdit()
  })

  app.get(
    '/specials',
    {
      config,
      schema: {
        tags,
        summary: 'Specials, newest start first, with status, lot count and bid count',
        querystring: StaffSpecialsQuerySchema,
        response: { 200: dataSchema(StaffSpecialPageSchema) },
      },
    },
    async (request) => ({ data: await service.specials(request.query) }),
  )

  app.get(
    '/specials/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A special with its lots as staff see them (reserve, certificate, export flag)',
        params: IdParamsSchema,
        response: { 200: dataSchema(StaffSpecialDetailSchema) },
      },
    },
    async (request) => ({ data: await service.special(request.params.id) }),
  )

  app.put(
    '/specials/:id',
    {
      config,
      schema: {
        tags,
        summary:
          'Change a special (texts and cover any time; times, stagger and soft close only before it starts: SPECIAL_STARTED)',
        params: IdParamsSchema,
        body: SpecialUpdateSchema,
        response: { 200: dataSchema(StaffSpecialSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `special:${request.params.id}` })
      const { before, after } = await service.updateSpecial(request.params.id, request.body)
      auditTrail(request, { before, after })
      return { data: after }
    },
  )

  app.put(
    '/lots/:id',
    {
      config,
      schema: {
        tags,
        summary:
          'Change a lot while it has no bid and has not closed (LOT_HAS_BIDS); prices on the grid (BID_OFF_GRID), reserve ≥ start (RESERVE_BELOW_START)',
        params: IdParamsSchema,
        body: LotUpdateSchema,
        response: { 200: dataSchema(StaffLotSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `lot:${request.params.id}` })
      const { before, after } = await service.updateLot(request.params.id, request.body)
      auditTrail(request, { before, after })
      return { data: after }
    },
  )

  app.delete(
    '/lots/:id',
    {
      config,
      schema: {
        tags,
        summary:
          'Withdraw a lot before its special starts (SPECIAL_STARTED after); later lots move up a number',
        params: IdParamsSchema,
        response: { 200: dataSchema(StaffLotSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `lot:${request.params.id}` })
      const before = await service.withdrawLot(request.params.id)
      auditTrail(request, { before, after: null })
      return { data: before }
    },
  )

  app.post(
    '/specials/:id/lots/import',
    {
      config,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Import lots from CSV as the special's next lots, all or none: every row checked first (dryRun: only check); LOT_IMPORT_INVALID with the rows' errors",
        params: IdParamsSchema,
        body: LotImportSchema,
        response: { 200: dataSchema(LotImportResultSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `special:${request.params.id}` })
      return { data: await service.importLots(request.params.id, request.body) }
    },
  )

  app.get(
    '/lots/import-template',
    {
      config,
      schema: {
        tags,
        summary: 'The lot import template (CSV, UTF-8 with BOM): the columns and two example rows',
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="lot-import-template.csv"')
        .send(lotImportTemplate()),
  )
}
