import { dataSchema } from '@numisma/contracts/api'
import {
  BannerInputSchema,
  CategoryInputSchema,
  CategoryOrderSchema,
  CreatedIdSchema,
  IdPathSchema,
  MallCategoryInputSchema,
  MallCategoryOrderSchema,
  MallCategoryRenameSchema,
  StaffBannerSchema,
  StaffCategorySchema,
  StaffMallCategorySchema,
} from '@numisma/contracts/staff-settings'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { auditTrail } from '../staff/access'
import type { CatalogSettingsService } from './settings-service'

/** Categories (auction and mall) and home banners for cataloguers (issue 12). */
export const catalogSettingsRoutes: FastifyPluginAsyncZod<{
  service: CatalogSettingsService
}> = async (app, { service }) => {
  const tags = ['staff']
  const config = { staffRoles: ['cataloguer'] } as const
  const Order = z.object({ before: z.array(z.number()), after: z.array(z.number()) })

  // Auction categories.

  app.get(
    '/categories',
    {
      config,
      schema: {
        tags,
        summary: 'Auction categories in their order, with the lots filed under each',
        response: { 200: dataSchema(z.array(StaffCategorySchema)) },
      },
    },
    async () => ({ data: await service.categories() }),
  )

  app.post(
    '/categories',
    {
      config,
      schema: {
        tags,
        summary: 'Add an auction category (last in the order)',
        body: CategoryInputSchema,
        response: { 200: dataSchema(CreatedIdSchema) },
      },
    },
    async (request) => {
      const created = await service.createCategory(request.body)
      auditTrail(request, { target: `category:${created.id}`, after: request.body })
      return { data: created }
    },
  )

  app.put(
    '/categories/order',
    {
      config,
      schema: {
        tags,
        summary: 'Put the auction categories in a new order',
        body: CategoryOrderSchema,
        response: { 200: dataSchema(Order) },
      },
    },
    async (request) => {
      const change = await service.orderCategories(request.body.ids)
      auditTrail(request, { target: 'categories', ...change })
      return { data: change }
    },
  )

  app.put(
    '/categories/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Rename an auction category or change its icon',
        params: IdPathSchema,
        body: CategoryInputSchema,
        response: { 200: dataSchema(StaffCategorySchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `category:${request.params.id}` })
      const { before, after } = await service.updateCategory(request.params.id, request.body)
      auditTrail(request, { target: `category:${after.id}`, before, after })
      return { data: after }
    },
  )

  app.delete(
    '/categories/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an auction category no lot is filed under',
        params: IdPathSchema,
        response: { 200: dataSchema(StaffCategorySchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `category:${request.params.id}` })
      const before = await service.deleteCategory(request.params.id)
      auditTrail(request, { target: `category:${before.id}`, before, after: { deleted: true } })
      return { data: before }
    },
  )

  // Mall categories.

  app.get(
    '/mall-categories',
    {
      config,
      schema: {
        tags,
        summary: "The mall's categories (a tree by parentId) in their order",
        response: { 200: dataSchema(z.array(StaffMallCategorySchema)) },
      },
    },
    async () => ({ data: await service.mallCategories() }),
  )

  app.post(
    '/mall-categories',
    {
      config,
      schema: {
        tags,
        summary: 'Add a mall category under a parent (or at the top), last among its siblings',
        body: MallCategoryInputSchema,
        response: { 200: dataSchema(CreatedIdSchema) },
      },
    },
    async (request) => {
      const created = await service.createMallCategory(request.body)
      auditTrail(request, { target: `mall-category:${created.id}`, after: request.body })
      return { data: created }
    },
  )

  app.put(
    '/mall-categories/order',
    {
      config,
      schema: {
        tags,
        summary: 'Put the mall categories under one parent in a new order',
        body: MallCategoryOrderSchema,
        response: { 200: dataSchema(Order) },
      },
    },
    async (request) => {
      const change = await service.orderMallCategories(request.body)
      auditTrail(request, {
        target: `mall-categories:${request.body.parentId ?? 'top'}`,
        ...change,
      })
      return { data: change }
    },
  )

  app.put(
    '/mall-categories/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Rename a mall category',
        params: IdPathSchema,
        body: MallCategoryRenameSchema,
        response: { 200: dataSchema(StaffMallCategorySchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `mall-category:${request.params.id}` })
      const { before, after } = await service.renameMallCategory(request.params.id, request.body)
      auditTrail(request, { target: `mall-category:${after.id}`, before, after })
      return { data: after }
    },
  )

  app.delete(
    '/mall-categories/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a mall category no item, sub-category or coupon names',
        params: IdPathSchema,
        response: { 200: dataSchema(StaffMallCategorySchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `mall-category:${request.params.id}` })
      const before = await service.deleteMallCategory(request.params.id)
      auditTrail(request, {
        target: `mall-category:${before.id}`,
        before,
        after: { deleted: true },
      })
      return { data: before }
    },
  )

  // Banners.

  app.get(
    '/banners',
    {
      config,
      schema: {
        tags,
        summary: 'Every banner (home and category page), live or not',
        response: { 200: dataSchema(z.array(StaffBannerSchema)) },
      },
    },
    async () => ({ data: await service.banners() }),
  )

  app.post(
    '/banners',
    {
      config,
      schema: {
        tags,
        summary: 'Add a banner',
        body: BannerInputSchema,
        response: { 200: dataSchema(CreatedIdSchema) },
      },
    },
    async (request) => {
      const created = await service.createBanner(request.body)
      auditTrail(request, { target: `banner:${created.id}`, after: request.body })
      return { data: created }
    },
  )

  app.put(
    '/banners/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit a banner',
        params: IdPathSchema,
        body: BannerInputSchema,
        response: { 200: dataSchema(StaffBannerSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `banner:${request.params.id}` })
      const { before, after } = await service.updateBanner(request.params.id, request.body)
      auditTrail(request, { target: `banner:${after.id}`, before, after })
      return { data: after }
    },
  )

  app.delete(
    '/banners/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a banner',
        params: IdPathSchema,
        response: { 200: dataSchema(StaffBannerSchema) },
      },
    },
    async (request) => {
      auditTrail(request, { target: `banner:${request.params.id}` })
      const before = await service.deleteBanner(request.params.id)
      auditTrail(request, { target: `banner:${before.id}`, before, after: { deleted: true } })
      return { data: before }
    },
  )
}
