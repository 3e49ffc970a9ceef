import { RechargeRequestSchema, RechargeSchema } from '@numisma/contracts/account'
import { dataSchema, IdempotencyKeySchema, IdParamsSchema } from '@numisma/contracts/api'
import {
  PaymentSchema,
  PayRequestSchema,
  PayResultSchema,
  WaitPayQuerySchema,
  WaitPayStatisticsSchema,
} from '@numisma/contracts/payment'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireUser } from '../../platform/request-signing'
import type { RechargeService } from './recharge-service'
import type { PaymentService } from './service'

export interface PaymentRouteOptions {
  payments: PaymentService
  recharges: RechargeService
}

const IdempotencyHeaders = z
  .object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() })
  .loose()

const keyOf = (headers: Record<string, unknown>): string | undefined => {
  const key = headers[HEADER.idempotencyKey]
  return typeof key === 'string' ? key : undefined
}

/** Paying orders and recharging the deposit (signed calls of the main service). */
export const paymentRoutes: FastifyPluginAsyncZod<PaymentRouteOptions> = async (app, opts) => {
  const { payments, recharges } = opts
  const tags = ['payments']

  app.post(
    '/user/3_3/pay/doPay',
    {
      schema: {
        tags,
        summary:
          'Pay my orders: balance (payment password; PAID at once), messaging-app pay (PENDING with the pay request; paid on the platform’s notice) or bank remittance (PENDING; the mall order stops expiring)',
        body: PayRequestSchema,
        headers: IdempotencyHeaders,
        response: { 200: dataSchema(PayResultSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return {
        data: await payments.pay(userId, request.body, {
          idempotencyKey: keyOf(request.headers),
          clientIp: request.ip,
        }),
      }
    },
  )

  app.get(
    '/user/3_3/pay/waitPayStatistics',
    {
      schema: {
        tags,
        summary: 'What paying these orders of mine comes to, and whether my balance covers it',
        querystring: WaitPayQuerySchema,
        response: { 200: dataSchema(WaitPayStatisticsSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await payments.statistics(userId, request.query.orderIds) }
    },
  )

  app.get(
    '/user/payments/:id',
    {
      schema: {
        tags,
        summary: 'One of my payments (the success page polls a pending one)',
        params: IdParamsSchema,
        response: { 200: dataSchema(PaymentSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await payments.payment(userId, request.params.id) }
    },
  )

  app.patch(
    '/user/recharge/@finance',
    {
      schema: {
        tags,
        summary:
          'Recharge my deposit through messaging-app pay: the amount plus the channel fee (RECHARGE_FEE_BPS, rounded up); the deposit grows when the platform’s notice arrives',
        body: RechargeRequestSchema,
        headers: IdempotencyHeaders,
        response: { 200: dataSchema(RechargeSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return {
        data: await recharges.recharge(userId, request.body.amount, {
          idempotencyKey: keyOf(request.headers),
          clientIp: request.ip,
        }),
      }
    },
  )

  app.get(
    '/user/recharge/:id',
    {
      schema: {
        tags,
        summary: 'One of my recharges (the recharge page polls a pending one)',
        params: IdParamsSchema,
        response: { 200: dataSchema(RechargeSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await recharges.view(userId, request.params.id) }
    },
  )
}
