import { IdempotencyKeySchema } from '@numisma/contracts/api'
import { COOKIE } from '@numisma/contracts/cookies'
import { HEADER } from '@numisma/contracts/signing'
import { mayAccess, type StaffAccess, type StaffSession } from '@numisma/contracts/staff'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../../platform/errors'
import type { AuditRecord } from './audit-repository'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call this staff route (ADR 021). Absent means admin only: a new route is closed
     * until its author names its roles.
     */
    staffRoles?: StaffAccess
  }
  interface FastifyRequest {
    staff: StaffSession | null
    /** What a staff call changed, for the audit log (set through `auditTrail`). */
    staffAudit: AuditTrail | null
  }
}

/** What a handler tells the audit log beyond the request: what it acted on, before and after. */
export interface AuditTrail {
  /** `lot:12`, `user:7`, `remittance:3` … */
  target?: string
  before?: unknown
  after?: unknown
}

/** Adds to the audit line of this request (several calls merge). */
export function auditTrail(request: FastifyRequest, trail: AuditTrail): void {
  request.staffAudit = { ...request.staffAudit, ...trail }
}

/** The caller's staff id; the guard has refused a request without a session before any handler. */
export function staffIdOf(request: FastifyRequest): number {
  if (!request.staff) throw new AppError('UNAUTHENTICATED')
  return request.staff.staffId
}

/** A staff route as registered: the guard's table, for the docs and the access-matrix test. */
export interface StaffRouteEntry {
  method: string
  url: string
  staffRoles: StaffAccess | undefined
  websocket: boolean
}

export interface StaffGuardDeps {
  sessionOf: (sid: string | undefined) => Promise<StaffSession>
  audit: { record(entry: AuditRecord): Promise<void> }
  now: () => number
  /** Filled with every route registered behind the guard. */
  routeTable: StaffRouteEntry[]
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const SECRET_KEY = /password|secret|token|^sid$|^smsCode$/i
const MAX_TEXT = 500
const MAX_JSON = 8_000

/** Secrets out, long strings (a CSV, a picture as a data URL) cut, for the log. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length} chars)` : value
  if (value === null || typeof value !== 'object' || depth > 6) return value
  if (Array.isArray(value)) {
    const items = value.slice(0, 50).map((v) => redact(v, depth + 1))
    return value.length > 50 ? [...items, `… (${value.length} items)`] : items
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      SECRET_KEY.test(key) ? '[redacted]' : redact(v, depth + 1),
    ]),
  )
}

/** A well-formed Idempotency-Key as sent, for the log (a malformed one was refused anyway). */
const idempotencyKeyOf = (value: unknown): string | null =>
  typeof value === 'string' && IdempotencyKeySchema.safeParse(value).success ? value : null

const asJson = (value: unknown): string => {
  const text = JSON.stringify(redact(value ?? null)) ?? 'null'
  return text.length > MAX_JSON ? JSON.stringify(`${text.slice(0, MAX_JSON)}… (cut)`) : text
}

function parsedPayload(payload: unknown): { data?: unknown; code?: unknown } | undefined {
  if (typeof payload !== 'string') return undefined
  try {
    const parsed: unknown = JSON.parse(payload)
    return parsed !== null && typeof parsed === 'object' ? parsed : undefined
  } catch {
    return undefined
  }
}

/**
 * Installs the staff guard on a scope (ADR 021): every request needs a live staff session, the
 * route's `staffRoles` must admit one of the caller's roles, and every call that changes something
 * — accepted or refused — is written to the audit log before the reply leaves.
 */
export function installStaffGuard(app: FastifyInstance, deps: StaffGuardDeps): void {
  if (!app.hasRequestDecorator('staff')) app.decorateRequest('staff', null)
  if (!app.hasRequestDecorator('staffAudit')) app.decorateRequest('staffAudit', null)

  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD')
        deps.routeTable.push({
          method,
          url: route.url,
          staffRoles: route.config?.staffRoles,
          websocket: route.websocket === true,
        })
  })

  app.addHook('onRequest', async (request) => {
    request.staff = await deps.sessionOf(request.cookies[COOKIE.staffSid])
    if (!mayAccess(request.staff.roles, request.routeOptions.config.staffRoles))
      throw new AppError('FORBIDDEN')
  })

  app.addHook('onSend', async (request, reply, payload) => {
    const staff = request.staff
    if (!staff || !MUTATING.has(request.method)) return payload
    const reply_ = parsedPayload(payload)
    const trail = request.staffAudit ?? {}
    const failed = reply.statusCode >= 400
    try {
      await deps.audit.record({
        staffId: staff.staffId,
        username: staff.username,
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        action: request.routeOptions.schema?.summary ?? '',
        target: trail.target ?? null,
        params: asJson(request.params),
        body: asJson(request.body),
        before: trail.before === undefined ? null : asJson(trail.before),
        after: failed ? null : asJson(trail.after ?? reply_?.data),
        idempotencyKey: idempotencyKeyOf(request.headers[HEADER.idempotencyKey]),
        statusCode: reply.statusCode,
        errorCode: failed && typeof reply_?.code === 'string' ? reply_.code : null,
        at: deps.now(),
      })
    } catch (error) {
      // The change itself has committed; a lost audit line is logged loudly, never hidden.
      request.log.error({ err: error, route: request.routeOptions.url }, 'staff audit write failed')
    }
    return payload
  })
}
