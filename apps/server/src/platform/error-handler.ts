import { COOKIE } from '@numisma/contracts/cookies'
import {
  type ErrorCode,
  errorText,
  isErrorCode,
  type Locale,
  pickLocale,
} from '@numisma/contracts/errors'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { isAppError } from './errors'

export function localeOf(request: FastifyRequest): Locale {
  // Framework errors (bad URL) arrive before the cookie plugin has parsed anything.
  const cookies = request.cookies as Record<string, string | undefined> | undefined
  const cookie = cookies?.[COOKIE.locale]
  return cookie ? pickLocale(cookie) : pickLocale(request.headers['accept-language'])
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  details?: Record<string, unknown>,
): FastifyReply {
  const body: Record<string, unknown> = { code, message: errorText(code, localeOf(request)) }
  if (details) body.details = details
  return reply.status(status).type('application/json; charset=utf-8').send(body)
}

/**
 * One place turns every failure into `{code, message, details?}` in the caller's locale. 5xx
 * bodies never carry internals; the log gets the stack.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      return sendError(request, reply, error.statusCode, error.code, error.details)
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((v) => ({
        field: [error.validationContext, v.instancePath.replace(/^\//, '').replace(/\//g, '.')]
          .filter(Boolean)
          .join('.'),
        message: v.message ?? 'invalid',
      }))
      const catalogued = error.validation
        .map((v) => v.message)
        .find((m): m is ErrorCode => isErrorCode(m) && m !== 'VALIDATION_FAILED')
      return sendError(request, reply, 400, catalogued ?? 'VALIDATION_FAILED', { fields })
    }
    const status = error.statusCode ?? 500
    if (status === 413) return sendError(request, reply, 413, 'PAYLOAD_TOO_LARGE')
    if (status === 429) return sendError(request, reply, 429, 'RATE_LIMITED')
    if (status >= 400 && status < 500) {
      return sendError(request, reply, status, 'VALIDATION_FAILED', { reason: error.code })
    }
    request.log.error({ err: error }, 'unhandled error')
    return sendError(request, reply, 500, 'INTERNAL_ERROR')
  })
}
