import { dataSchema, IdempotencyKeySchema, IdParamsSchema } from '@numisma/contracts/api'
import {
  ConfirmReceiptSchema,
  DeliveryAppliedSchema,
  DeliveryApplySchema,
  DeliveryInfoSchema,
  DeliveryQueryQuerySchema,
  ExitBanQuerySchema,
  ExitBanSchema,
  KeepFeeQuerySchema,
  KeepFeeSchema,
  ReceiveDetailQuerySchema,
  ReceiveDetailSchema,
  ShipmentChangedSchema,
  ShipmentIdParamsSchema,
  ShipmentSchema,
  ShipmentShipSchema,
  ShipmentsPageSchema,
  ShipmentsQuerySchema,
  StaffShipmentSchema,
  StaffShipmentsQuerySchema,
} from '@numisma/contracts/delivery'
import { HEADER } from '@numisma/contracts/signing'
import { trackingNoRefusal } from '@numisma/contracts/staff-fulfilment'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../platform/errors'
import { requireUser } from '../../platform/request-signing'
import { auditTrail } from '../staff/access'
import type { DeliveryService } from './service'

export interface DeliveryRouteOptions {
  service: DeliveryService
}

const IdempotencyHeaders = z
  .object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() })
  .loose()

const keyOf = (headers: Record<string, unknown>): string | undefined => {
  const key = headers[HEADER.idempotencyKey]
  return typeof key === 'string' ? key : undefined
}

/** Delivery of the caller's paid goods in storage (signed calls of the main service). */
export const deliveryRoutes: FastifyPluginAsyncZod<DeliveryRouteOptions> = async (
  app,
  { service },
) => {
  const tags = ['delivery']

  app.post(
    '/api/user/logistic/delivery/apply',
    {
      schema: {
        tags,
        summary:
          'Apply for delivery of my paid orders in storage as one shipment: express to my address or pickup on a bookable day and slot; the fees are taken from my balance (payPassword when above 0) — EXIT_BANNED, SLOT_FULL, SLOT_UNAVAILABLE, ORDER_NOT_SHIPPABLE, BALANCE_LOW',
        body: DeliveryApplySchema,
        headers: IdempotencyHeaders,
        response: { 200: dataSchema(DeliveryAppliedSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return {
        data: await service.apply(userId, request.body, {
          idempotencyKey: keyOf(request.headers),
        }),
      }
    },
  )

  app.get(
    '/api/user/logistic/delivery/query',
    {
      schema: {
        tags,
        summary:
          'Apply-to-ship: my paid orders in storage with their storage fees, the quote for the chosen orders (express with addressId, else pickup), the bookable days with places left',
        querystring: DeliveryQueryQuerySchema,
        response: { 200: dataSchema(DeliveryInfoSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      const { orderIds, addressId, insured } = request.query
      return {
        data: await service.info(userId, {
          orderIds,
          addressId,
          insured: insured === '1' || insured === 'true',
        }),
      }
    },
  )

  app.get(
    '/user/3_3/logistic/queryKeepFee',
    {
      schema: {
        tags,
        summary: 'The insurance fee for goods declared at `value` fen (rate with a minimum)',
        querystring: KeepFeeQuerySchema,
        response: { 200: dataSchema(KeepFeeSchema) },
      },
    },
    async (request) => {
      requireUser(request)
      return { data: service.keepFee(request.query.value) }
    },
  )

  app.get(
    '/user/3_3/logistic/queryExitBan',
    {
      schema: {
        tags,
        summary:
          'May these orders of mine go to that country (and province)? Names the banned ones',
        querystring: ExitBanQuerySchema,
        response: { 200: dataSchema(ExitBanSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.exitBan(userId, request.query) }
    },
  )

  app.get(
    '/api/user/logistic/waiting',
    {
      schema: {
        tags,
        summary: 'My shipments waiting to be received (shipped), newest first',
        querystring: ShipmentsQuerySchema,
        response: { 200: ShipmentsPageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return service.waiting(userId, request.query)
    },
  )

  app.get(
    '/api/user/logistic/completed',
    {
      schema: {
        tags,
        summary:
          'My shipment and pickup records: every shipment whatever its status, newest application first',
        querystring: ShipmentsQuerySchema,
        response: { 200: ShipmentsPageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return service.records(userId, request.query)
    },
  )

  app.get(
    '/user/:id/@logistic',
    {
      schema: {
        tags,
        summary: 'One of my shipments (another user’s answers 404)',
        params: ShipmentIdParamsSchema,
        response: { 200: dataSchema(ShipmentSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.shipment(userId, request.params.id) }
    },
  )

  app.get(
    '/user/queryAuctionList',
    {
      schema: {
        tags,
        summary: 'Receive detail: one of my shipments with its orders in full',
        querystring: ReceiveDetailQuerySchema,
        response: { 200: dataSchema(ReceiveDetailSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.receiveDetail(userId, request.query.shipmentId) }
    },
  )

  app.post(
    '/user/upLogisticStatus',
    {
      schema: {
        tags,
        summary:
          'Confirm receipt of my shipped shipment: it and its orders complete (ORDER_NOT_RECEIVABLE)',
        body: ConfirmReceiptSchema,
        response: { 200: dataSchema(ShipmentChangedSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.confirmReceipt(userId, request.body.shipmentId) }
    },
  )
}

/** Staff's calls on shipments (DESIGN §9 "Delivery"), inside the staff session scope. */
export const deliveryStaffRoutes: FastifyPluginAsyncZod<DeliveryRouteOptions> = async (
  app,
  { service },
) => {
  const tags = ['staff']

  app.get(
    '/shipments',
    {
      config: { staffRoles: ['shipping'] },
      schema: {
        tags,
        summary:
          'Shipments, oldest application first (status=applied: waiting to ship or hand over)',
        querystring: StaffShipmentsQuerySchema,
        response: { 200: dataSchema(z.array(StaffShipmentSchema)) },
      },
    },
    async (request) => ({ data: await service.staffShipments(request.query) }),
  )

  app.post(
    '/shipments/:id/ship',
    {
      config: { staffRoles: ['shipping'] },
      schema: {
        tags,
        summary:
          "Ship an applied express shipment with carrier and tracking number (checked against a known carrier's format: TRACKING_NO_INVALID); it completes by itself 15 days later (ORDER_NOT_SHIPPABLE once shipped, or for a pickup)",
        params: IdParamsSchema,
        body: ShipmentShipSchema,
        response: { 200: dataSchema(ShipmentChangedSchema) },
      },
    },
    async (request) => {
      const { carrier } = request.body
      const trackingNo = request.body.trackingNo.toUpperCase()
      const example = trackingNoRefusal(carrier, trackingNo)
      if (example !== null) throw new AppError('TRACKING_NO_INVALID', { carrier, example })
      const changed = await service.ship(request.params.id, { carrier, trackingNo })
      // Shipping succeeds only from `applied` with no courier yet (moves.ts), so that was before.
      auditTrail(request, {
        target: `shipment:${changed.shipmentId}`,
        before: { status: 'applied', carrier: null, trackingNo: null },
        after: { ...changed, carrier, trackingNo },
      })
      return { data: changed }
    },
  )

  app.post(
    '/shipments/:id/complete',
    {
      config: { staffRoles: ['shipping'] },
      schema: {
        tags,
        summary:
          'Hand an applied pickup over at the counter: it and its orders complete (ORDER_NOT_SHIPPABLE once handed over, or for express)',
        params: IdParamsSchema,
        response: { 200: dataSchema(ShipmentChangedSchema) },
      },
    },
    async (request) => {
      const changed = await service.handOver(request.params.id)
      // Handing over succeeds only from `applied` (moves.ts).
      auditTrail(request, {
        target: `shipment:${changed.shipmentId}`,
        before: { status: 'applied' },
        after: changed,
      })
      return { data: changed }
    },
  )
}
