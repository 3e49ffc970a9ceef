import type { FastifyPluginAsync } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { announceCatalogueEdit } from '../../platform/read-cache'
import { priceStepsStaffRoutes } from '../bidding/price-steps-routes'
import { PriceStepsService } from '../bidding/price-steps-service'
import { staffCouponRoutes } from '../coupons/staff-routes'
import { StaffCouponService } from '../coupons/staff-service'
import { staffMallRoutes } from '../mall/staff-routes'
import { StaffMallService } from '../mall/staff-service'
import { ListingRepository } from './listing-repository'
import { ListingService } from './listing-service'
import { catalogSettingsRoutes } from './settings-routes'
import { CatalogSettingsService } from './settings-service'

/**
 * The console's shop settings (issue 12, role `cataloguer`): mall items and stock, categories,
 * banners, coupons and the increment table, each module's routes over its own service. Registered
 * inside the staff guard's scope (app.ts), so every route names its roles.
 */
export const catalogSettingsArea: FastifyPluginAsync<{ database: Database; clock: Clock }> = async (
  app,
  { database, clock },
) => {
  // Categories, banners, mall items, increments: an edit that went through shows in the shop at
  // once on this instance (ADR 033).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) announceCatalogueEdit(database.db)
  })
  await app.register(staffMallRoutes, {
    service: StaffMallService.forDatabase(database, (tx, input) =>
      // The catalogue's insert inside the new item's own transaction: described in full, or not at all.
      new ListingService({
        transact: (work) => work(tx),
        clock,
        listings: new ListingRepository(database.dialect),
        priceSteps: () => PriceStepsService.forDatabase(database).current(),
      }).addMallItem(input),
    ),
  })
  await app.register(catalogSettingsRoutes, {
    service: CatalogSettingsService.forDatabase(database, clock),
  })
  await app.register(staffCouponRoutes, {
    service: StaffCouponService.forDatabase(database, clock),
  })
  await app.register(priceStepsStaffRoutes, { service: PriceStepsService.forDatabase(database) })
}
