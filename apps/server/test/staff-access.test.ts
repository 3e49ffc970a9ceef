import { mayAccess, STAFF_ROLES, type StaffRole } from '@numisma/contracts/staff'
import { staffActionName } from '@numisma/contracts/staff-actions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StaffRouteEntry } from '../src/modules/staff/access'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()

/** The only routes that may leave `staffRoles` out (and so be admin-only): the admin's own. */
const ADMIN_ONLY = new Set([
  'GET /svc/main/admin/staff-members',
  'POST /svc/main/admin/staff-members',
  'POST /svc/main/admin/staff-members/:id',
  'GET /svc/main/admin/audit',
])

/** A concrete URL for a route pattern: every parameter a plausible value. */
const concrete = (url: string): string =>
  url
    .replace(/:key\b/g, 'a'.repeat(32))
    .replace(/:(\w+)/g, '1')
    .replace(/\*$/, 'x')

const routeName = (r: StaffRouteEntry) => `${r.method} ${r.url}`
// Signing out would end the session the rest of the matrix runs with.
const harmless = (r: StaffRouteEntry) => !r.url.endsWith('/logout')

describe.each(databases)('staff access matrix on $name', (kind) => {
  let t: TestApp
  let routes: readonly StaffRouteEntry[]
  let buyer: Session
  const asRole = new Map<StaffRole, StaffCall>()

  beforeAll(async () => {
    t = await createTestApp(kind)
    routes = t.app.staffRouteTable
    buyer = await t.signIn()
    for (const role of STAFF_ROLES) asRole.set(role, await staffCaller(t, [role]))
  })
  afterAll(() => t.close())

  const call = (r: StaffRouteEntry, cookies: Record<string, string>) =>
    t.inject({
      method: r.method as 'GET',
      url: concrete(r.url),
      cookies,
      ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
    })

  it('knows the operator routes, and each names who may call it unless it is the admin’s own', () => {
    expect(routes.length).toBeGreaterThan(20)
    const silent = routes.filter((r) => r.staffRoles === undefined).map(routeName)
    expect(silent.filter((name) => !ADMIN_ONLY.has(name))).toEqual([])
    for (const r of routes)
      if (Array.isArray(r.staffRoles)) expect(r.staffRoles.length).toBeGreaterThan(0)
  })

  it('names every changing staff call in the staff’s words for the audit log', () => {
    const unnamed = routes
      .filter((r) => r.method !== 'GET' && staffActionName(r.method, r.url) === null)
      .map(routeName)
    expect(unnamed).toEqual([])
  })

  it('refuses every staff route without a staff session, and with a buyer’s session, as 401', async () => {
    const buyerCookies = { sid: buyer.sid, staff_sid: buyer.sid }
    for (const r of routes) {
      for (const cookies of [{}, buyerCookies]) {
        const res = await call(r, cookies)
        expect({ route: routeName(r), status: res.statusCode }).toEqual({
          route: routeName(r),
          status: 401,
        })
        expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' })
      }
    }
  })

  it('refuses each role the routes its roles do not name (403), and lets it through to the rest', async () => {
    for (const role of STAFF_ROLES.filter((r) => r !== 'admin')) {
      const as = asRole.get(role)!
      for (const r of routes.filter(harmless)) {
        const res = await as(r.method as 'GET', concrete(r.url).replace('/svc/main/admin', ''))
        const allowed = mayAccess([role], r.staffRoles)
        const refused = res.statusCode === 403 && res.json<{ code: string }>().code === 'FORBIDDEN'
        expect({ role, route: routeName(r), refused }).toEqual({
          role,
          route: routeName(r),
          refused: !allowed,
        })
        expect(res.statusCode).not.toBe(401)
        expect(res.statusCode).toBeLessThan(500)
      }
    }
  })

  it('keeps a cashier off the catalogue and a cataloguer off the money', async () => {
    const cashier = asRole.get('cashier')!
    const lot = await cashier('POST', '/lots', { specialId: 1, title: 'x', startPrice: 100 })
    expect(lot.statusCode).toBe(403)
    const cataloguer = asRole.get('cataloguer')!
    const deposit = await cataloguer('POST', '/users/1/deposit', { amount: 100 })
    expect(deposit.statusCode).toBe(403)
  })

  it('writes each refusal of a signed-in staff member to the audit log', async () => {
    const admin = await staffCaller(t)
    const log = await admin('GET', '/audit?route=%2Flots&limit=200')
    const refusals = log
      .json<{ data: { route: string; statusCode: number; errorCode: string | null }[] }>()
      .data.filter((e) => e.route === '/svc/main/admin/lots' && e.statusCode === 403)
    expect(refusals.length).toBeGreaterThan(0)
    expect(refusals[0]!.errorCode).toBe('FORBIDDEN')
  })
})
