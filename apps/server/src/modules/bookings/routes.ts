import { dataSchema, IdempotencyKeySchema, IdParamsSchema } from '@numisma/contracts/api'
import {
  BookingAppliedSchema,
  BookingApplySchema,
  BookingSchema,
  BookingsPageSchema,
} from '@numisma/contracts/delivery'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireUser } from '../../platform/request-signing'
import type { BookingService } from './service'

export interface BookingRouteOptions {
  service: BookingService
}

export const IdempotencyHeaders = z
  .object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() })
  .loose()

export const idempotencyKeyOf = (headers: Record<string, unknown>): string | undefined => {
  const key = headers[HEADER.idempotencyKey]
  return typeof key === 'string' ? key : undefined
}

const BookingsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
})

/** Spec §7 "Orders": counter cash appointments (the buyer's side; signed calls). */
export const bookingRoutes: FastifyPluginAsyncZod<BookingRouteOptions> = async (
  app,
  { service },
) => {
  const tags = ['orders']

  app.post(
    '/user/booking/bookingApply',
    {
      schema: {
        tags,
        summary:
          'Book a day and slot at the counter to pay cash for my unpaid orders (they keep their status and stop expiring or falling overdue while booked); ORDER_NOT_BOOKABLE, SLOT_UNAVAILABLE, SLOT_FULL',
        body: BookingApplySchema,
        headers: IdempotencyHeaders,
        response: { 200: dataSchema(BookingAppliedSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return {
        data: await service.apply(userId, request.body, {
          idempotencyKey: idempotencyKeyOf(request.headers),
        }),
      }
    },
  )

  app.get(
    '/user/booking/queryBookingList',
    {
      schema: {
        tags,
        summary: 'My counter cash bookings, newest first',
        querystring: BookingsQuerySchema,
        response: { 200: BookingsPageSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return service.list(userId, request.query)
    },
  )

  app.post(
    '/user/booking/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancel my counter cash booking before its day: the place and the orders are free again (BOOKING_NOT_CANCELLABLE on the day or after, NOT_PENDING once closed)',
        params: IdParamsSchema,
        response: { 200: dataSchema(BookingSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.cancel(userId, request.params.id) }
    },
  )
}
