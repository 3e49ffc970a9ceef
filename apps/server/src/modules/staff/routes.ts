import { dataSchema, IdParamsSchema } from '@numisma/contracts/api'
import { COOKIE } from '@numisma/contracts/cookies'
import {
  AuditEntrySchema,
  AuditQuerySchema,
  StaffMemberCreateSchema,
  StaffMemberSchema,
  StaffMemberUpdateSchema,
  StaffSessionSchema,
} from '@numisma/contracts/staff'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Clock } from '../../platform/clock'
import { deliveryStaffRoutes } from '../delivery/routes'
import type { DeliveryService } from '../delivery/service'
import { auditTrail, installStaffGuard, type StaffRouteEntry, staffIdOf } from './access'
import { type OperationsOptions, operationsRoutes } from './operations'
import { STAFF_SESSION_MS, type StaffService } from './service'

/**
 * A sign-in name holds no control characters (none can be created with one), and PostgreSQL
 * refuses NUL in a text parameter: looked up, it answered 500 instead of 400.
 */
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/

export const STAFF_COOKIE_PATH = '/svc/main/admin'

/** Operator API under /svc/main/admin: a staff session cookie, not HMAC signing (DESIGN §9). */
export interface StaffRouteOptions {
  service: StaffService
  clock: Clock
  loginLimit: number
  operations: OperationsOptions
  /** Shipping and handing over shipments (modules/delivery). */
  delivery: DeliveryService
  /**
   * The console's areas from other modules (chat desk, catalogue, sales, money, fulfilment),
   * registered inside the guarded scope: each route names its `staffRoles` (ADR 021).
   */
  areas: (scope: FastifyInstance) => Promise<void>
  /** Filled with the guarded routes and who may call each (app.ts exposes it). */
  routeTable: StaffRouteEntry[]
}

export const staffRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (
  app,
  { service, clock, loginLimit, operations, delivery, areas, routeTable },
) => {
  const tags = ['staff']

  app.post(
    '/login',
    {
      config: { rateLimit: { max: loginLimit, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Staff sign-in',
        body: z.object({
          username: z.string().min(1).max(64).regex(NO_CONTROL_CHARACTERS),
          password: z.string().min(1).max(256),
        }),
        response: { 200: dataSchema(z.object({ username: z.string() })) },
      },
    },
    async (request, reply) => {
      const { sid, username } = await service.login(request.body.username, request.body.password)
      reply.setCookie(COOKIE.staffSid, sid, {
        path: STAFF_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: STAFF_SESSION_MS / 1000,
      })
      return { data: { username } }
    },
  )

  // Everything registered in here needs a staff session whose roles the route admits.
  await app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>()
    installStaffGuard(authed, {
      sessionOf: (sid) => service.sessionOf(sid),
      audit: { record: (entry) => service.recordAudit(entry) },
      now: () => clock.now(),
      routeTable,
    })

    await authed.register(operationsRoutes, operations)
    await authed.register(deliveryStaffRoutes, { service: delivery })
    await areas(authed)

    authed.get(
      '/session',
      {
        config: { staffRoles: 'any' },
        schema: {
          tags,
          summary: 'The signed-in staff member and their roles',
          response: { 200: dataSchema(StaffSessionSchema) },
        },
      },
      (request) => ({ data: request.staff! }),
    )

    authed.post(
      '/logout',
      {
        config: { staffRoles: 'any' },
        schema: {
          tags,
          summary: 'Staff sign-out',
          response: { 200: dataSchema(z.object({ loggedOut: z.literal(true) })) },
        },
      },
      async (request, reply) => {
        await service.logout(request.cookies[COOKIE.staffSid])
        reply.clearCookie(COOKIE.staffSid, { path: STAFF_COOKIE_PATH })
        return { data: { loggedOut: true as const } }
      },
    )

    authed.get(
      '/staff-members',
      {
        schema: {
          tags,
          summary: 'Staff accounts and their roles (admin)',
          response: { 200: dataSchema(z.array(StaffMemberSchema)) },
        },
      },
      async () => ({ data: await service.list() }),
    )

    authed.post(
      '/staff-members',
      {
        schema: {
          tags,
          summary: 'Open a staff account with its roles (admin)',
          body: StaffMemberCreateSchema,
          response: { 200: dataSchema(StaffMemberSchema) },
        },
      },
      async (request) => {
        const member = await service.create(request.body)
        auditTrail(request, { target: `staff:${member.id}` })
        return { data: member }
      },
    )

    authed.post(
      '/staff-members/:id',
      {
        schema: {
          tags,
          summary: "Change a staff account's roles, password or whether it may sign in (admin)",
          params: IdParamsSchema,
          body: StaffMemberUpdateSchema,
          response: { 200: dataSchema(StaffMemberSchema) },
        },
      },
      async (request) => {
        const { before, after } = await service.update(
          staffIdOf(request),
          request.params.id,
          request.body,
        )
        auditTrail(request, { target: `staff:${after.id}`, before, after })
        return { data: after }
      },
    )

    authed.get(
      '/audit',
      {
        schema: {
          tags,
          summary: 'The staff audit log, newest first (admin)',
          querystring: AuditQuerySchema,
          response: { 200: dataSchema(z.array(AuditEntrySchema)) },
        },
      },
      async (request) => ({ data: await service.auditLog(request.query) }),
    )
  })
}
