import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StaffRepository } from '../src/modules/staff/repository'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

describe.each(databases)('staff sign-in on $name', (kind) => {
  let t: TestApp
  let password: string

  beforeAll(async () => {
    t = await createTestApp(kind)
    const service = new StaffService(new StaffRepository(t.database.db), t.clock)
    const boot = await service.bootstrap(undefined)
    expect(boot.created).toBe(true)
    password = boot.generated!
    expect(password.length).toBeGreaterThanOrEqual(12)
    expect(await service.bootstrap('another-password')).toEqual({ created: false })
  })
  afterAll(() => t.close())

  const login = (body: unknown) =>
    t.inject({ method: 'POST', url: '/svc/main/admin/login', payload: body as object })

  it('refuses a wrong password and an unknown user alike', async () => {
    for (const body of [
      { username: 'admin', password: 'wrong-password' },
      { username: 'nobody', password },
    ]) {
      const res = await login(body)
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('STAFF_LOGIN_FAILED')
    }
  })

  it('signs in with the bootstrap password and keeps a staff session', async () => {
    const res = await login({ username: 'admin', password })
    expect(res.statusCode).toBe(200)
    const cookie = res.cookies.find((c) => c.name === 'staff_sid')
    expect(cookie?.httpOnly).toBe(true)
    expect(cookie?.path).toBe('/svc/main/admin')

    const session = await t.inject({
      method: 'GET',
      url: '/svc/main/admin/session',
      cookies: { staff_sid: cookie!.value },
    })
    expect(session.json()).toEqual({ data: { username: 'admin' } })

    await t.inject({
      method: 'POST',
      url: '/svc/main/admin/logout',
      cookies: { staff_sid: cookie!.value },
    })
    const after = await t.inject({
      method: 'GET',
      url: '/svc/main/admin/session',
      cookies: { staff_sid: cookie!.value },
    })
    expect(after.statusCode).toBe(401)
  })

  it('refuses staff calls without a session and the user pair instead of one', async () => {
    expect((await t.inject({ method: 'GET', url: '/svc/main/admin/session' })).json().code).toBe(
      'UNAUTHENTICATED',
    )
    const user = await t.signIn()
    const res = await t.inject({
      method: 'GET',
      url: '/svc/main/admin/session',
      cookies: { sid: user.sid },
    })
    expect(res.statusCode).toBe(401)
  })

  it('validates the login body', async () => {
    const res = await login({ username: '' })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
  })
})
