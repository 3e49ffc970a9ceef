import { dataSchema } from '@numisma/contracts/api'
import {
  IdPathSchema,
  MallItemNewSchema,
  MallItemSaleSchema,
  MallItemUpdateSchema,
  StaffMallItemPageSchema,
  StaffMallItemQuerySchema,
  StaffMallItemSchema,
  StockAdjustSchema,
} from '@numisma/contracts/staff-settings'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { auditTrail } from '../staff/access'
import type { StaffMallService } from './staff-service'

/** Staff's mall items (issue 12, cataloguers): list, create, edit, stock, on/off sale. */
export const staffMallRoutes: FastifyPluginAsyncZod<{ service: StaffMallService }> = async (
  app,
  { service },
) => {
  const tags = ['staff']
  const config = { staffRoles: ['cataloguer'] } as const

  app.get(
    '/mall-items',
    {
      config,
      schema: {
        tags,
        summary: 'Mall items with shelf, reserved and sold units, newest first',
        querystring: StaffMallItemQuerySchema,
        response: { 200: dataSchema(StaffMallItemPageSchema) },
      },
    },
    async (request) => ({ data: await service.list(request.query) }),
  )

  app.get(
    '/mall-items/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One mall item as staff see it',
        params: IdPathSchema,
        response: { 200: dataSchema(StaffMallItemSchema) },
      },
    },
    async (request) => ({ data: await service.get(request.params.id) }),
  )

  // POST /mall-items (operations.ts) takes only title, price and stock; this takes the edit form's
  // fields too, so 新建商品 offers what 编辑 does.
  app.post(
    '/mall-items/new',
    {
      config,
      schema: {
        tags,
        summary: 'Add a mall item with its photos, description, category, limit and grade',
        body: MallItemNewSchema,
        response: { 200: dataSchema(StaffMallItemSchema) },
      },
    },
    async (request) => {
      const created = await service.create(request.body)
      auditTrail(request, { target: `mall-item:${created.id}`, after: created })
      return { data: created }
    },
  )

  app.put(
    '/mall-items/:id',
    {
      config,
      schema: {
        tags,
        summary: "Edit a mall item's description, photos, price, category and limit",
        params: IdPathSchema,
        body: MallItemUpdateSchema,
        response: { 200: dataSchema(StaffMallItemSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `mall-item:${request.params.id}` })
      const { before, after } = await service.update(request.params.id, request.body)
      auditTrail(request, { target: `mall-item:${after.id}`, before, after })
      return { data: after }
    },
  )

  app.post(
    '/mall-items/:id/stock',
    {
      config,
      schema: {
        tags,
        summary: "Adjust a mall item's stock by a signed number of units",
        params: IdPathSchema,
        body: StockAdjustSchema,
        response: { 200: dataSchema(StaffMallItemSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `mall-item:${request.params.id}` })
      const { before, after } = await service.adjustStock(request.params.id, request.body)
      const units = ({ stock, reserved, sold }: typeof before) => ({ stock, reserved, sold })
      auditTrail(request, {
        target: `mall-item:${after.id}`,
        before: units(before),
        after: units(after),
      })
      return { data: after }
    },
  )

  app.put(
    '/mall-items/:id/sale',
    {
      config,
      schema: {
        tags,
        summary: 'Put a mall item on sale or take it off',
        params: IdPathSchema,
        body: MallItemSaleSchema,
        response: { 200: dataSchema(StaffMallItemSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `mall-item:${request.params.id}` })
      const { before, after } = await service.setOnSale(request.params.id, request.body.onSale)
      auditTrail(request, {
        target: `mall-item:${after.id}`,
        before: { onSale: before.onSale },
        after: { onSale: after.onSale },
      })
      return { data: after }
    },
  )
}
