import {
  RemittanceConfirmSchema,
  StaffDecisionSchema,
  StaffRemittanceQuerySchema,
  StaffRemittanceSchema,
  StaffWithdrawalQuerySchema,
  StaffWithdrawalSchema,
} from '@numisma/contracts/account'
import { dataSchema, IdParamsSchema } from '@numisma/contracts/api'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { auditTrail } from '../staff/access'
import { IdempotencyHeaders, idempotencyKeyOf } from './routes'
import type { Actor, BankingService } from './service'

export interface BankingStaffRouteOptions {
  banking: BankingService
}

/** Staff keys live apart from users' (negative owner ids), so a key never replays across them. */
function actorOf(request: {
  staff: { staffId: number } | null
  headers: Record<string, unknown>
}): Actor {
  return {
    idempotencyOwner: -(request.staff?.staffId ?? 0),
    idempotencyKey: idempotencyKeyOf(request.headers),
  }
}

/**
 * The audit line of a decision (ADR 021): the user whose money it is, the notice or withdrawal as
 * it stood (waiting) and as decided. The guard writes the line; refusals keep only the request.
 */
function auditDecision(
  request: FastifyRequest,
  subject: 'remittance' | 'withdrawal',
  decided: { id: number; userId: number; status: string; amount: number },
  after: object,
) {
  auditTrail(request, {
    target: `user:${decided.userId}`,
    before: {
      [subject]: decided.id,
      status: subject === 'remittance' ? 'submitted' : 'requested',
      amount: decided.amount,
    },
    after: { [subject]: decided.id, status: decided.status, ...after },
  })
}

/**
 * Staff decisions on money (DESIGN §9 "Money"): confirm or reject a remittance notice, pay or refuse
 * a withdrawal; each decided once (NOT_PENDING after). Registered inside the staff session scope.
 */
export const bankingStaffRoutes: FastifyPluginAsyncZod<BankingStaffRouteOptions> = async (
  app,
  { banking },
) => {
  const tags = ['staff']
  const decision = {
    params: IdParamsSchema,
    headers: IdempotencyHeaders,
    // A note is optional, so is the body: no body reaches the schema as null.
    body: StaffDecisionSchema.nullish(),
  }

  app.get(
    '/remittances',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: 'Remittance notices, newest first (status=submitted: those waiting)',
        querystring: StaffRemittanceQuerySchema,
        response: { 200: dataSchema(z.array(StaffRemittanceSchema)) },
      },
    },
    async (request) => ({ data: await banking.staffRemittances(request.query.status) }),
  )

  app.get(
    '/remittances/:id/receipt',
    {
      config: { staffRoles: ['cashier'] },
      schema: { tags, summary: "A notice's receipt as a JPEG", params: IdParamsSchema },
    },
    async (request, reply) => {
      const jpeg = await banking.receipt(request.params.id, null)
      return reply.type('image/jpeg').header('cache-control', 'private, no-store').send(jpeg)
    },
  )

  app.post(
    '/remittances/:id/confirm',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary:
          'The money arrived: credit what arrived (amountReceived, the notice amount by default) and pay the orders the notice names out of it, in id order while it covers them, in one transaction (NOT_PENDING once decided)',
        ...decision,
        body: RemittanceConfirmSchema.nullish(),
        response: { 200: dataSchema(StaffRemittanceSchema) },
      },
    },
    async (request) => {
      const decided = await banking.confirmRemittance(
        request.params.id,
        request.body ?? {},
        actorOf(request),
      )
      auditDecision(request, 'remittance', decided, { amountReceived: decided.amountReceived })
      return { data: decided }
    },
  )

  app.post(
    '/remittances/:id/reject',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: 'No such money arrived: nothing moves (NOT_PENDING once decided)',
        ...decision,
        response: { 200: dataSchema(StaffRemittanceSchema) },
      },
    },
    async (request) => {
      const decided = await banking.rejectRemittance(
        request.params.id,
        request.body?.note,
        actorOf(request),
      )
      auditDecision(request, 'remittance', decided, { note: decided.note })
      return { data: decided }
    },
  )

  app.get(
    '/withdrawals',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: 'Withdrawals with whole account numbers, newest first (status=requested: to pay)',
        querystring: StaffWithdrawalQuerySchema,
        response: { 200: dataSchema(z.array(StaffWithdrawalSchema)) },
      },
    },
    async (request) => ({ data: await banking.staffWithdrawals(request.query.status) }),
  )

  app.post(
    '/withdrawals/:id/pay',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: 'The money was sent to the user’s bank account (NOT_PENDING once decided)',
        ...decision,
        response: { 200: dataSchema(StaffWithdrawalSchema) },
      },
    },
    async (request) => {
      const decided = await banking.payWithdrawal(
        request.params.id,
        request.body?.note,
        actorOf(request),
      )
      auditDecision(request, 'withdrawal', decided, { source: decided.source, note: decided.note })
      return { data: decided }
    },
  )

  app.post(
    '/withdrawals/:id/refuse',
    {
      config: { staffRoles: ['cashier'] },
      schema: {
        tags,
        summary: 'Refuse a withdrawal: the reserved money goes back (NOT_PENDING once decided)',
        ...decision,
        response: { 200: dataSchema(StaffWithdrawalSchema) },
      },
    },
    async (request) => {
      const decided = await banking.refuseWithdrawal(
        request.params.id,
        request.body?.note,
        actorOf(request),
      )
      auditDecision(request, 'withdrawal', decided, { source: decided.source, note: decided.note })
      return { data: decided }
    },
  )
}
