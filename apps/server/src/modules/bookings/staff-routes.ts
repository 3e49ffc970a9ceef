import { dataSchema, IdParamsSchema } from '@numisma/contracts/api'
import {
  BookingCompletedSchema,
  StaffBookingSchema,
  StaffBookingsQuerySchema,
} from '@numisma/contracts/delivery'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { auditTrail } from '../staff/access'
import { IdempotencyHeaders, idempotencyKeyOf } from './routes'
import type { BookingService } from './service'

export interface BookingStaffRouteOptions {
  bookings: BookingService
}

/**
 * The counter's side of cash bookings (DESIGN §9 "Delivery"): the day's list, closing a booking
 * when the cash is taken and the goods handed over, and cancelling one (a no-show). Registered
 * inside the staff session scope.
 */
export const bookingStaffRoutes: FastifyPluginAsyncZod<BookingStaffRouteOptions> = async (
  app,
  { bookings },
) => {
  const tags = ['staff']

  app.get(
    '/bookings',
    {
      config: { staffRoles: ['cashier', 'shipping'] },
      schema: {
        tags,
        summary:
          'Counter cash bookings for a day (and of a status), soonest slot first, with whose',
        querystring: StaffBookingsQuerySchema,
        response: { 200: dataSchema(z.array(StaffBookingSchema)) },
      },
    },
    async (request) => ({ data: await bookings.staffList(request.query) }),
  )

  app.post(
    '/bookings/:id/complete',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary:
          "Cash taken, goods handed over: the cash is credited to the buyer's balance, pays the booking's orders and they complete, in one transaction (NOT_PENDING once closed; ORDER_NOT_PAYABLE if an order was meanwhile paid or cancelled)",
        params: IdParamsSchema,
        headers: IdempotencyHeaders,
        response: { 200: dataSchema(BookingCompletedSchema) },
      },
    },
    async (request) => {
      const completed = await bookings.complete(request.params.id, {
        idempotencyOwner: -(request.staff?.staffId ?? 0),
        idempotencyKey: idempotencyKeyOf(request.headers),
      })
      // Closing succeeds only from `booked` (a replayed key answers the first close again).
      auditTrail(request, {
        target: `booking:${completed.bookingId}`,
        before: { status: 'booked', orderIds: completed.orderIds },
        after: completed,
      })
      return { data: completed }
    },
  )

  app.post(
    '/bookings/:id/cancel',
    {
      config: { staffRoles: ['cashier', 'shipping'] },
      schema: {
        tags,
        summary:
          'Cancel a booking (the buyer did not come): its place and orders are free again (NOT_PENDING once decided)',
        params: IdParamsSchema,
        response: { 200: dataSchema(StaffBookingSchema) },
      },
    },
    async (request) => {
      const cancelled = await bookings.staffCancel(request.params.id)
      // Cancelling succeeds only from `booked` (NOT_PENDING otherwise).
      auditTrail(request, {
        target: `booking:${cancelled.id}`,
        before: { ...cancelled, status: 'booked' },
        after: cancelled,
      })
      return { data: cancelled }
    },
  )
}
