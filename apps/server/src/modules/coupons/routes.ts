import { dataSchema } from '@numisma/contracts/api'
import {
  CouponHistoryQuerySchema,
  MallCouponSchema,
  ProductNoParamsSchema,
  ReceiveCouponParamsSchema,
  ReceivedCouponSchema,
  UsableCouponSchema,
  UserCouponRecordSchema,
  UserCouponsQuerySchema,
} from '@numisma/contracts/mall'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireUser } from '../../platform/request-signing'
import type { CouponService } from './service'

export interface CouponRouteOptions {
  service: CouponService
}

/** Spec §7 "Products" and the payment screen: coupons on an item page, received, and usable. */
export const couponRoutes: FastifyPluginAsyncZod<CouponRouteOptions> = async (app, { service }) => {
  const tags = ['coupons']

  app.get(
    '/mallproduct/getMallCoupons/:productNo',
    {
      schema: {
        tags,
        summary: 'Coupons open now that cover the item, with what the caller may still receive',
        params: ProductNoParamsSchema,
        response: { 200: dataSchema(z.array(MallCouponSchema)) },
      },
    },
    async (request) => {
      const caller = request.caller
      const userId = caller?.kind === 'user' ? caller.userId : null
      return { data: await service.mallCoupons(request.params.productNo, userId) }
    },
  )

  app.post(
    '/api/user/receiveCoupon/:couponId',
    {
      schema: {
        tags,
        summary: 'Receive one of a coupon (COUPON_GONE, COUPON_LIMIT)',
        params: ReceiveCouponParamsSchema,
        response: { 200: dataSchema(ReceivedCouponSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.receive(userId, request.params.couponId) }
    },
  )

  app.get(
    '/user/3_3/pay/getUserCoupons',
    {
      schema: {
        tags,
        summary: "The caller's coupons usable for an item or an unpaid mall order, best first",
        querystring: UserCouponsQuerySchema,
        response: { 200: dataSchema(z.array(UsableCouponSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.usableFor(userId, request.query) }
    },
  )

  app.get(
    '/user/3_3/pay/getUserCouponsHistory',
    {
      schema: {
        tags,
        summary: "The caller's coupons (usable, used or locked, expired), newest first",
        querystring: CouponHistoryQuerySchema,
        response: { 200: dataSchema(z.array(UserCouponRecordSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.history(userId, request.query.state) }
    },
  )
}
