import { dataSchema } from '@numisma/contracts/api'
import { COOKIE } from '@numisma/contracts/cookies'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { deliveryStaffRoutes } from '../delivery/routes'
import type { DeliveryService } from '../delivery/service'
import { type OperationsOptions, operationsRoutes } from './operations'
import { STAFF_SESSION_MS, type StaffService } from './service'

export const STAFF_COOKIE_PATH = '/svc/main/admin'

const StaffSchema = z.object({ username: z.string() })

declare module 'fastify' {
  interface FastifyRequest {
    staff: { staffId: number; username: string } | null
  }
}

/** Operator API under /svc/main/admin: a staff session cookie, not HMAC signing (DESIGN §9). */
export interface StaffRouteOptions {
  service: StaffService
  loginLimit: number
  operations: OperationsOptions
  /** Shipping and handing over shipments (modules/delivery). */
  delivery: DeliveryService
}

export const staffRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (
  app,
  { service, loginLimit, operations, delivery },
) => {
  app.decorateRequest('staff', null)

  app.post(
    '/login',
    {
      config: { rateLimit: { max: loginLimit, timeWindow: '15 minutes' } },
      schema: {
        tags: ['staff'],
        summary: 'Staff sign-in',
        body: z.object({
          username: z.string().min(1).max(64),
          password: z.string().min(1).max(256),
        }),
        response: { 200: dataSchema(StaffSchema) },
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

  // Everything registered after this hook needs a staff session.
  await app.register(async (authed) => {
    authed.addHook('onRequest', async (request) => {
      request.staff = await service.sessionOf(request.cookies[COOKIE.staffSid])
    })

    await authed.register(operationsRoutes, operations)
    await authed.register(deliveryStaffRoutes, { service: delivery })

    authed.get(
      '/session',
      {
        schema: {
          tags: ['staff'],
          summary: 'The signed-in staff member',
          response: { 200: dataSchema(StaffSchema) },
        },
      },
      (request) => ({ data: { username: request.staff?.username ?? '' } }),
    )

    authed.post(
      '/logout',
      {
        schema: {
          tags: ['staff'],
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
  })
}
