import { dataSchema } from '@numisma/contracts/api'
import {
  AdjustmentRequestSchema,
  AdjustmentSchema,
  LedgerDailyQuerySchema,
  LedgerDailyReportSchema,
  MoneyLedgerPageSchema,
  MoneyLedgerQuerySchema,
  MoneyUserQuerySchema,
  MoneyUserSchema,
  OrderIdParamsSchema,
  RefundableOrderSchema,
  RefundRequestSchema,
  RefundSchema,
  RefundsPageSchema,
  RefundsQuerySchema,
  UserIdParamsSchema,
} from '@numisma/contracts/staff-money'
import { ledgerReportCsv } from '@numisma/domain/ledger-report'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { LedgerReportService } from '../ledger/report-service'
import { auditTrail, staffIdOf } from '../staff/access'
import { IdempotencyHeaders, idempotencyKeyOf } from './routes'
import type { MoneyDeskService } from './staff-money-service'

export interface MoneyDeskRouteOptions {
  desk: MoneyDeskService
  report: LedgerReportService
}

const cashier = { staffRoles: ['cashier' as const] }

/**
 * The console's money area for cashiers (issue 12): the user lookup, adjustments, refunds and the
 * daily ledger report. Registered inside the staff scope, so the guard and the audit log apply;
 * every changing call names its target and the balances before and after.
 */
export const moneyDeskRoutes: FastifyPluginAsyncZod<MoneyDeskRouteOptions> = async (
  app,
  { desk, report },
) => {
  const tags = ['staff', 'money']

  app.get(
    '/money/users',
    {
      config: cashier,
      schema: {
        tags,
        summary: "A user's accounts, quota and orders by mobile number or id",
        querystring: MoneyUserQuerySchema,
        response: { 200: dataSchema(MoneyUserSchema) },
      },
    },
    async (request) => ({ data: await desk.lookup(request.query) }),
  )

  app.get(
    '/money/users/:userId/ledger',
    {
      config: cashier,
      schema: {
        tags,
        summary: "The user's ledger lines, newest first",
        params: UserIdParamsSchema,
        querystring: MoneyLedgerQuerySchema,
        response: { 200: MoneyLedgerPageSchema },
      },
    },
    async (request) =>
      desk.ledgerLines(request.params.userId, request.query.page, request.query.pageSize),
  )

  app.post(
    '/money/users/:userId/adjustments',
    {
      config: cashier,
      schema: {
        tags,
        summary:
          "Adjust a user's balance or deposit (credit or debit against clearing, with a reason)",
        params: UserIdParamsSchema,
        headers: IdempotencyHeaders,
        body: AdjustmentRequestSchema,
        response: { 200: dataSchema(AdjustmentSchema) },
      },
    },
    async (request) => {
      const { userId } = request.params
      auditTrail(request, { target: `user:${userId}` })
      const result = await desk.adjust(userId, request.body, {
        staffId: staffIdOf(request),
        idempotencyKey: idempotencyKeyOf(request.headers),
      })
      auditTrail(request, { before: result.before, after: result.after })
      return { data: result }
    },
  )

  app.get(
    '/money/orders/:orderId',
    {
      config: cashier,
      schema: {
        tags,
        summary: 'An order as the refund desk sees it, with why it cannot be refunded',
        params: OrderIdParamsSchema,
        response: { 200: dataSchema(RefundableOrderSchema) },
      },
    },
    async (request) => ({ data: await desk.refundableOrder(request.params.orderId) }),
  )

  app.post(
    '/money/orders/:orderId/refund',
    {
      config: cashier,
      schema: {
        tags,
        summary:
          'Refund a paid order not yet applied for delivery: it is cancelled, the money goes back to the balance (ORDER_NOT_REFUNDABLE otherwise)',
        params: OrderIdParamsSchema,
        headers: IdempotencyHeaders,
        body: RefundRequestSchema,
        response: { 200: dataSchema(RefundSchema) },
      },
    },
    async (request) => {
      const { orderId } = request.params
      auditTrail(request, { target: `order:${orderId}` })
      const refund = await desk.refund(orderId, request.body.reason, {
        staffId: staffIdOf(request),
        idempotencyKey: idempotencyKeyOf(request.headers),
      })
      auditTrail(request, {
        before: { status: 'paid', userId: refund.userId, balance: refund.balanceBefore },
        after: { status: 'cancelled', userId: refund.userId, balance: refund.balanceAfter },
      })
      return { data: refund }
    },
  )

  app.get(
    '/money/refunds',
    {
      config: cashier,
      schema: {
        tags,
        summary: 'Refunds made, newest first',
        querystring: RefundsQuerySchema,
        response: { 200: RefundsPageSchema },
      },
    },
    async (request) => desk.refunds(request.query.page, request.query.pageSize),
  )

  app.get(
    '/money/ledger/daily',
    {
      config: cashier,
      schema: {
        tags,
        summary:
          "The China day's ledger: transfers by kind, per account kind opening, in, out and closing, and whether it balances",
        querystring: LedgerDailyQuerySchema,
        response: { 200: dataSchema(LedgerDailyReportSchema) },
      },
    },
    async (request) => ({ data: await report.daily(request.query.date) }),
  )

  app.get(
    '/money/ledger/daily.csv',
    {
      config: cashier,
      schema: {
        tags,
        summary: 'The daily ledger report as CSV (UTF-8 with BOM)',
        querystring: LedgerDailyQuerySchema,
      },
    },
    async (request, reply) => {
      const daily = await report.daily(request.query.date)
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="ledger-${daily.date}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(ledgerReportCsv(daily))
    },
  )
}
