import {
  dataSchema,
  IdempotencyKeySchema,
  IdParamsSchema,
  pageSchema,
} from '@numisma/contracts/api'
import {
  CreateOrderRequestSchema,
  CreateOrderResultSchema,
  ProductNoParamsSchema,
  PurchaseRecordQuerySchema,
  PurchaseRecordSchema,
} from '@numisma/contracts/mall'
import {
  CancelOrderQuerySchema,
  CancelOrderResultSchema,
  OrderGroupQuerySchema,
  OrderSchema,
  OrdersPageSchema,
} from '@numisma/contracts/orders'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { localeOf } from '../../platform/error-handler'
import { requireUser } from '../../platform/request-signing'
import type { MallOrderService } from './mall-order-service'
import type { OrderGroups } from './order-groups'

export interface OrderRouteOptions {
  service: MallOrderService
  groups: OrderGroups
}

export const orderRoutes: FastifyPluginAsyncZod<OrderRouteOptions> = async (app, opts) => {
  const { service, groups } = opts

  app.post(
    '/mallorder/createOrder',
    {
      schema: {
        tags: ['mall'],
        summary:
          'Buy a mall item: HTTP 200 whatever the outcome; only status SUCCESS placed an order (pending payment, due in 30 minutes)',
        body: CreateOrderRequestSchema,
        headers: z.object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() }).loose(),
        response: { 200: dataSchema(CreateOrderResultSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      const key = request.headers[HEADER.idempotencyKey]
      return {
        data: await service.createOrder(userId, request.body, {
          locale: localeOf(request),
          idempotencyKey: typeof key === 'string' ? key : undefined,
        }),
      }
    },
  )

  app.get(
    '/mallorder/records/:productNo',
    {
      schema: {
        tags: ['mall'],
        summary: 'Who bought a mall item, newest first; buyers masked but for the caller',
        params: ProductNoParamsSchema,
        querystring: PurchaseRecordQuerySchema,
        response: { 200: pageSchema(PurchaseRecordSchema) },
      },
    },
    async (request) => {
      const viewer = request.caller?.kind === 'user' ? request.caller.userId : null
      return service.purchaseRecords(request.params.productNo, viewer, request.query)
    },
  )

  app.get(
    '/user/3_3/order/query',
    {
      schema: {
        tags: ['orders'],
        summary: 'My orders pending payment (auction and mall), newest first',
        response: { 200: dataSchema(z.array(OrderSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.pendingOrders(userId) }
    },
  )

  app.get(
    '/user/logistic/waiting',
    {
      schema: {
        tags: ['orders'],
        summary:
          'My won lots waiting to ship (paid or applied for delivery, in storage), newest first, with the storage run up so far',
        querystring: OrderGroupQuerySchema,
        response: { 200: OrdersPageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return groups.waitingToShip(userId, 'auction', request.query)
    },
  )

  app.get(
    '/user/bplus/queryNoPaymentMark',
    {
      schema: {
        tags: ['orders'],
        summary:
          'My mall orders waiting to ship (paid or applied for delivery, in storage), newest first, with the storage run up so far',
        querystring: OrderGroupQuerySchema,
        response: { 200: OrdersPageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return groups.waitingToShip(userId, 'mall', request.query)
    },
  )

  app.get(
    '/user/order/getUserOrderByBid',
    {
      schema: {
        tags: ['orders'],
        summary: 'My completed (traded) orders, auction and mall, newest first',
        querystring: OrderGroupQuerySchema,
        response: { 200: OrdersPageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return groups.completed(userId, request.query)
    },
  )

  app.get(
    '/user/3_3/order/cancel',
    {
      schema: {
        tags: ['orders'],
        summary:
          'Cancel my unpaid mall order; its stock and coupon come back (ORDER_NOT_CANCELLABLE otherwise)',
        querystring: CancelOrderQuerySchema,
        response: { 200: dataSchema(CancelOrderResultSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.cancel(userId, request.query.orderId) }
    },
  )

  app.get(
    '/user/order/all',
    {
      schema: {
        tags: ['orders'],
        summary: 'All my orders, whatever their status, newest first',
        response: { 200: dataSchema(z.array(OrderSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.allOrders(userId) }
    },
  )

  app.get(
    '/user/order/:id',
    {
      schema: {
        tags: ['orders'],
        summary: 'One of my orders (another user’s answers 404)',
        params: IdParamsSchema,
        response: { 200: dataSchema(OrderSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.order(userId, request.params.id) }
    },
  )
}
