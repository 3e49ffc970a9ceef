import { BalanceCreditedSchema, BalanceCreditSchema } from '@numisma/contracts/account'
import { dataSchema, IdempotencyKeySchema, IdParamSchema } from '@numisma/contracts/api'
import { CouponCreatedSchema, CouponCreateSchema } from '@numisma/contracts/mall'
import { HEADER } from '@numisma/contracts/signing'
import {
  DepositCreditedSchema,
  DepositCreditSchema,
  LegacyQuotaCreditedSchema,
  LotCreatedSchema,
  LotCreateSchema,
  MallItemCreatedSchema,
  MallItemCreateSchema,
  SpecialCreatedSchema,
  SpecialCreateSchema,
} from '@numisma/contracts/staff'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ListingService } from '../catalog/listing-service'
import { bookingStaffRoutes } from '../bookings/staff-routes'
import type { BookingService } from '../bookings/service'
import type { CouponService } from '../coupons/service'
import { bankingStaffRoutes } from '../finance/staff-routes'
import type { BankingService } from '../finance/service'
import { overdueStaffRoutes } from '../orders/overdue-routes'
import type { ForfeitService } from '../orders/overdue'
import { auditTrail } from './access'
import type { CounterService } from './counter-service'

export interface OperationsOptions {
  listings: ListingService
  counter: CounterService
  coupons: CouponService
  banking: BankingService
  forfeits: ForfeitService
  bookings: BookingService
}

const IdempotencyHeaders = z
  .object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() })
  .loose()

/** Operator calls of DESIGN §9: set up auctions and the mall, record cash paid at the counter. */
export const operationsRoutes: FastifyPluginAsyncZod<OperationsOptions> = async (
  app,
  { listings, counter, coupons, banking, forfeits, bookings },
) => {
  const tags = ['staff']
  await app.register(bankingStaffRoutes, { banking })
  await app.register(overdueStaffRoutes, { forfeits })
  await app.register(bookingStaffRoutes, { bookings })

  app.post(
    '/specials',
    {
      config: { staffRoles: ['cataloguer'] },
      schema: {
        tags,
        summary: 'Create a special',
        body: SpecialCreateSchema,
        response: { 200: dataSchema(SpecialCreatedSchema) },
      },
    },
    async (request) => {
      const special = await listings.createSpecial(request.body)
      auditTrail(request, { target: `special:${special.id}` })
      return { data: special }
    },
  )

  app.post(
    '/lots',
    {
      config: { staffRoles: ['cataloguer'] },
      schema: {
        tags,
        summary: "Add a lot as the special's next; it closes staggerSeconds after the previous one",
        body: LotCreateSchema,
        response: { 200: dataSchema(LotCreatedSchema) },
      },
    },
    async (request) => {
      const lot = await listings.addLot(request.body)
      auditTrail(request, { target: `lot:${lot.id}` })
      return { data: lot }
    },
  )

  app.post(
    '/mall-items',
    {
      config: { staffRoles: ['cataloguer'] },
      schema: {
        tags,
        summary: 'Add a mall item; its product number comes from its id',
        body: MallItemCreateSchema,
        response: { 200: dataSchema(MallItemCreatedSchema) },
      },
    },
    async (request) => {
      const item = await listings.addMallItem(request.body)
      auditTrail(request, { target: `mall-item:${item.id}` })
      return { data: item }
    },
  )

  app.post(
    '/coupons',
    {
      config: { staffRoles: ['cataloguer'] },
      schema: {
        tags,
        summary: 'Issue a mall coupon (spend-X-save-Y or percent off with a cap)',
        body: CouponCreateSchema,
        response: { 200: dataSchema(CouponCreatedSchema) },
      },
    },
    async (request) => {
      const coupon = await coupons.create(request.body)
      auditTrail(request, { target: `coupon:${coupon.id}` })
      return { data: coupon }
    },
  )

  const creditDeposit = (request: {
    staff: { staffId: number } | null
    params: { userId: number }
    body: { amount: number; memo: string }
    headers: Record<string, unknown>
  }) => {
    const key = request.headers[HEADER.idempotencyKey]
    return counter.creditDeposit(
      request.staff?.staffId ?? 0,
      request.params.userId,
      request.body.amount,
      request.body.memo,
      typeof key === 'string' ? key : undefined,
    )
  }

  app.post(
    '/users/:userId/deposit',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: "Credit a user's deposit (保证金) paid at the counter",
        params: z.object({ userId: IdParamSchema }),
        headers: IdempotencyHeaders,
        body: DepositCreditSchema,
        response: { 200: dataSchema(DepositCreditedSchema) },
      },
    },
    async (request) => ({ data: await creditDeposit(request) }),
  )

  app.post(
    '/users/:userId/balance',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: "Credit a user's balance with cash taken at the counter (from clearing)",
        params: z.object({ userId: IdParamSchema }),
        headers: IdempotencyHeaders,
        body: BalanceCreditSchema,
        response: { 200: dataSchema(BalanceCreditedSchema) },
      },
    },
    async (request) => {
      const key = request.headers[HEADER.idempotencyKey]
      return {
        data: await counter.creditBalance(
          request.staff?.staffId ?? 0,
          request.params.userId,
          request.body.amount,
          request.body.memo,
          typeof key === 'string' ? key : undefined,
        ),
      }
    },
  )

  // `…/quota` is the path from before DESIGN §4 separated the deposit from the quota; it stays as
  // an alias for older clients, answering in their shape too (`quota` was the deposit balance).
  app.post(
    '/users/:userId/quota',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: 'Alias of /users/{userId}/deposit (older path; `quota` is the deposit balance)',
        params: z.object({ userId: IdParamSchema }),
        headers: IdempotencyHeaders,
        body: DepositCreditSchema,
        response: { 200: dataSchema(LegacyQuotaCreditedSchema) },
      },
    },
    async (request) => {
      const { deposit } = await creditDeposit(request)
      return { data: { deposit, quota: deposit } }
    },
  )
}
