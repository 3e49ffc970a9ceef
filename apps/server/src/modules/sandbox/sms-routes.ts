import type { FastifyPluginAsync } from 'fastify'
import type { SmsSandbox } from './sms-sandbox'

export interface SmsSandboxRouteOptions {
  sandbox: SmsSandbox
}

const BODY_LIMIT = 16 * 1024

/**
 * The SMS provider's RPC endpoint, stood in for locally at `/svc/sandbox/sms` outside production
 * (ADR 028): `GET /?…` or `POST /` with a form body, as the provider takes them; its JSON answers.
 * Not signed with our request HMAC, since the real provider is not.
 */
export const smsSandboxRoutes: FastifyPluginAsync<SmsSandboxRouteOptions> = async (app, opts) => {
  const { sandbox } = opts
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  const strings = (value: unknown): Record<string, string> =>
    Object.fromEntries(
      Object.entries((value ?? {}) as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/',
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox of the SMS provider’s SendSms (signed RPC parameters in, JSON out)',
      },
      handler: async (request, reply) => {
        const params = { ...strings(request.query), ...strings(request.body) }
        const answer = sandbox.sendSms(method, params)
        return reply.code(answer.status).send(answer.body)
      },
    })
  }
}
