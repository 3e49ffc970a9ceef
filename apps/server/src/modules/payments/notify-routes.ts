import type { FastifyPluginAsync } from 'fastify'
import type { PayNotices } from './notices'
import { noticeReply } from './wechat-pay-protocol'

export interface NotifyRouteOptions {
  notices: PayNotices
}

/** Where the platform's notices are read from: its documents are small. */
const NOTICE_BODY_LIMIT = 16 * 1024

/**
 * `POST /svc/main/pay/notify/wechat`, outside the signed main service: the messaging platform
 * signs its notices with the merchant key (checked by PayNotices), not with our request HMAC.
 * It answers in the platform's own terms — `<xml>` with `return_code` SUCCESS, or FAIL and a
 * reason — and the platform retries a notice until it reads SUCCESS.
 */
export const notifyRoutes: FastifyPluginAsync<NotifyRouteOptions> = async (app, opts) => {
  app.addContentTypeParser(
    ['text/xml', 'application/xml'],
    { parseAs: 'string', bodyLimit: NOTICE_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  )

  app.post(
    '/wechat',
    {
      schema: {
        tags: ['payments'],
        summary:
          'The messaging platform’s payment notice (XML, MD5-signed with the merchant key); answers XML SUCCESS once settled or replayed, FAIL otherwise',
      },
    },
    async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : ''
      const verdict = await opts.notices.receive(body)
      reply.type('text/xml; charset=utf-8')
      if (!verdict.ok) {
        request.log.warn({ reason: verdict.reason }, 'payment notice refused')
        return reply.status(400).send(noticeReply(false, verdict.reason))
      }
      return reply.status(200).send(noticeReply(true, 'OK'))
    },
  )
}
