import { dataSchema } from '@numisma/contracts/api'
import {
  CounterDaySchema,
  FulfilmentShipmentSchema,
  FulfilmentShipmentsQuerySchema,
  PickListQuerySchema,
  PickListSchema,
  PickupsQuerySchema,
} from '@numisma/contracts/staff-fulfilment'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { FulfilmentService } from './staff-fulfilment-service'

export interface FulfilmentRouteOptions {
  fulfilment: FulfilmentService
}

/**
 * The console's fulfilment reads (issue 12), inside the staff session scope: express shipments
 * with what to pack, the counter's day by slot, and pick lists. Shipping and handing over are
 * `POST /shipments/{id}/ship|complete` (routes.ts), closing and cancelling bookings
 * modules/bookings/staff-routes.ts.
 */
export const fulfilmentStaffRoutes: FastifyPluginAsyncZod<FulfilmentRouteOptions> = async (
  app,
  { fulfilment },
) => {
  const tags = ['staff']

  app.get(
    '/fulfilment/shipments',
    {
      config: { staffRoles: ['shipping'] },
      schema: {
        tags,
        summary:
          'Express shipments waiting to ship (status=applied, oldest application first) or shipped (oldest first), with buyer, address and every item to pack',
        querystring: FulfilmentShipmentsQuerySchema,
        response: { 200: dataSchema(z.array(FulfilmentShipmentSchema)) },
      },
    },
    async (request) => ({ data: await fulfilment.shipments(request.query) }),
  )

  app.get(
    '/fulfilment/pickups',
    {
      config: { staffRoles: ['shipping', 'cashier'] },
      schema: {
        tags,
        summary:
          "The counter's day by slot: capacity, places taken (pickups and cash bookings), each pickup and booking with its buyer and items",
        querystring: PickupsQuerySchema,
        response: { 200: dataSchema(CounterDaySchema) },
      },
    },
    async (request) => ({ data: await fulfilment.counterDay(request.query.date) }),
  )

  app.get(
    '/fulfilment/pick-lists',
    {
      config: { staffRoles: ['shipping', 'cashier'] },
      schema: {
        tags,
        summary:
          "A pick list: a day's (and slot's) pickups to hand over and open cash bookings, or the named shipments — one sheet each, buyers' mobiles masked",
        querystring: PickListQuerySchema,
        response: { 200: dataSchema(PickListSchema) },
      },
    },
    async (request) => ({ data: await fulfilment.pickList(request.query) }),
  )
}
