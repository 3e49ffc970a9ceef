import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { cashierPage, cashierProblem, safeRedirect, withResult } from './cashier-page'
import type { WxPaySandbox } from './wxpay-sandbox'

export interface WxPaySandboxRouteOptions {
  sandbox: WxPaySandbox
}

/** The platform's pay documents and the sheet's form are small. */
const BODY_LIMIT = 16 * 1024

const CashierQuerySchema = z.object({
  prepay_id: z.string().max(64).optional(),
  redirect: z.string().max(2048).optional(),
})
const ConfirmSchema = z.object({
  prepay_id: z.string().max(64),
  redirect: z.string().max(2048).optional(),
})

/**
 * The messaging platform's pay, stood in for locally (mounted at `/svc/sandbox/wxpay` outside
 * production, or when WECHAT_PAY_SANDBOX=true): not signed with our request HMAC, since the real
 * platform is not. `POST /pay/unifiedorder` speaks the platform's XML; the cashier page is the
 * payment sheet the platform would show inside its app.
 */
export const wxpaySandboxRoutes: FastifyPluginAsyncZod<WxPaySandboxRouteOptions> = async (
  app,
  opts,
) => {
  const { sandbox } = opts
  const tags = ['sandbox']
  app.addContentTypeParser(
    ['text/xml', 'application/xml'],
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, body),
  )
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.addHook('onClose', () => sandbox.close())

  app.post(
    '/pay/unifiedorder',
    {
      schema: {
        tags,
        summary:
          'Sandbox of the platform’s unified order: a signed XML request in, a signed XML reply with prepay_id out',
      },
    },
    async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : ''
      return reply.type('text/xml; charset=utf-8').send(sandbox.unifiedOrder(body))
    },
  )

  app.get(
    '/cashier',
    {
      schema: {
        tags,
        summary: 'Sandbox payment sheet: the amount, 确认支付 and 取消',
        querystring: CashierQuerySchema,
      },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
      const redirect = safeRedirect(request.query.redirect, request.hostname)
      if (redirect === null) {
        return reply.status(400).send(cashierProblem('返回地址不被允许', null))
      }
      const trade = sandbox.trade(request.query.prepay_id ?? '')
      if (!trade) {
        return reply
          .status(404)
          .send(cashierProblem('支付单不存在或已过期', withResult(redirect, 'cancel')))
      }
      if (trade.paid) {
        return reply.send(cashierProblem('该订单已支付', withResult(redirect, 'ok')))
      }
      return reply.send(cashierPage(trade, sandbox.merchantId, redirect))
    },
  )

  app.post(
    '/cashier/confirm',
    {
      schema: {
        tags,
        summary:
          'Sandbox: the payer confirms; the signed notice goes to the merchant’s notify_url, then back to the page (wxpay=ok)',
        body: ConfirmSchema,
      },
    },
    async (request, reply) => {
      const redirect = safeRedirect(request.body.redirect, request.hostname)
      if (redirect === null) {
        return reply
          .status(400)
          .type('text/html; charset=utf-8')
          .send(cashierProblem('返回地址不被允许', null))
      }
      const result = await sandbox.confirm(request.body.prepay_id)
      if (result.kind === 'unknown') {
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .send(cashierProblem('支付单不存在或已过期', withResult(redirect, 'cancel')))
      }
      return reply.redirect(withResult(redirect, 'ok'), 303)
    },
  )
}
