import {
  CompanyBankSchema,
  RemittanceRequestSchema,
  RemittanceSchema,
  WithdrawalRequestSchema,
  WithdrawalSchema,
} from '@numisma/contracts/account'
import { dataSchema, IdempotencyKeySchema, IdParamsSchema } from '@numisma/contracts/api'
import { HEADER } from '@numisma/contracts/signing'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { requireUser } from '../../platform/request-signing'
import type { BankingService } from './service'

export interface BankingRouteOptions {
  service: BankingService
  /** Remittance notices per user per hour (each may carry a receipt to decode). */
  remittanceLimit: number
}

export const IdempotencyHeaders = z
  .object({ [HEADER.idempotencyKey]: IdempotencyKeySchema.optional() })
  .loose()

export const idempotencyKeyOf = (headers: Record<string, unknown>): string | undefined => {
  const key = headers[HEADER.idempotencyKey]
  return typeof key === 'string' ? key : undefined
}

/** A receipt is at most a 4 MiB data URL (the contract's bound); the rest of a notice is small. */
const REMITTANCE_BODY_LIMIT = 4 * 1024 * 1024 + 64 * 1024

/** Spec §7 "Account": the company's bank accounts, remittance notices and withdrawals. */
export const bankingRoutes: FastifyPluginAsyncZod<BankingRouteOptions> = async (
  app,
  { service, remittanceLimit },
) => {
  const tags = ['finance']

  app.get(
    '/user/finance/@companyBanks',
    {
      schema: {
        tags,
        summary: 'The company bank accounts a collector may remit to',
        response: { 200: dataSchema(z.array(CompanyBankSchema)) },
      },
    },
    async (request) => {
      requireUser(request)
      return { data: await service.companyBanks() }
    },
  )

  app.post(
    '/user/finance/@remittance',
    {
      bodyLimit: REMITTANCE_BODY_LIMIT,
      config: {
        // Each notice may make the server decode a picture: a user files a few, never a stream.
        // preHandler: the signature check (onRequest) has named the caller by then.
        rateLimit: {
          max: remittanceLimit,
          timeWindow: '1 hour',
          keyGenerator: (request) =>
            request.caller?.kind === 'user'
              ? `remittance:${request.caller.userId}`
              : `remittance-ip:${request.ip}`,
          hook: 'preHandler',
        },
      },
      schema: {
        tags,
        summary:
          'Report a bank transfer (optional receipt photo of at most 25 megapixels; ORDER_NOT_PAYABLE, RECEIPT_INVALID; RATE_LIMITED past 30 an hour); staff confirm it',
        headers: IdempotencyHeaders,
        body: RemittanceRequestSchema,
        response: { 200: dataSchema(RemittanceSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return {
        data: await service.reportRemittance(
          userId,
          request.body,
          idempotencyKeyOf(request.headers),
        ),
      }
    },
  )

  app.get(
    '/user/finance/remittances',
    {
      schema: {
        tags,
        summary: 'My remittance notices, newest first',
        response: { 200: dataSchema(z.array(RemittanceSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.remittances(userId) }
    },
  )

  app.get(
    '/user/finance/remittances/:id/receipt',
    {
      schema: {
        tags,
        summary: "My notice's receipt as a JPEG (another user's answers 404)",
        params: IdParamsSchema,
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request)
      const jpeg = await service.receipt(request.params.id, userId)
      return reply.type('image/jpeg').header('cache-control', 'private, max-age=86400').send(jpeg)
    },
  )

  app.post(
    '/user/finance/withdrawals',
    {
      schema: {
        tags,
        summary:
          'Ask to withdraw balance, or deposit exposure leaves free, to a bank account; reserved at once (BALANCE_LOW, DEPOSIT_IN_USE)',
        headers: IdempotencyHeaders,
        body: WithdrawalRequestSchema,
        response: { 200: dataSchema(WithdrawalSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return {
        data: await service.requestWithdrawal(
          userId,
          request.body,
          idempotencyKeyOf(request.headers),
        ),
      }
    },
  )

  app.get(
    '/user/finance/withdrawals',
    {
      schema: {
        tags,
        summary: 'My withdrawals, newest first (account numbers masked but the last four digits)',
        response: { 200: dataSchema(z.array(WithdrawalSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.withdrawals(userId) }
    },
  )
}
