import type { AuditEntry, StaffMember, StaffSession } from '@numisma/contracts/staff'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StaffService } from '../src/modules/staff/service'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()

describe.each(databases)('staff accounts and the audit log on $name', (kind) => {
  let t: TestApp
  let admin: StaffCall
  let seq = 0

  beforeAll(async () => {
    t = await createTestApp(kind)
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())

  const login = (username: string, password: string) =>
    t.inject({ method: 'POST', url: '/svc/main/admin/login', payload: { username, password } })
  const sessionWith = (cookie: string) =>
    t.inject({ method: 'GET', url: '/svc/main/admin/session', cookies: { staff_sid: cookie } })
  const cookieOf = (res: Awaited<ReturnType<typeof login>>) =>
    res.cookies.find((c) => c.name === 'staff_sid')!.value
  const open = async (roles: string[], password = 'a-long-password-1') => {
    const username = `clerk.${seq++}`
    const res = await admin('POST', '/staff-members', { username, password, roles })
    expect(res.statusCode).toBe(200)
    return { member: res.json<{ data: StaffMember }>().data, username, password }
  }
  const auditOf = async (target: string) =>
    (await admin('GET', `/audit?target=${encodeURIComponent(target)}`)).json<{
      data: AuditEntry[]
    }>().data

  it('opens an account with roles that signs in and holds exactly those roles', async () => {
    const { member, username, password } = await open(['cashier', 'shipping'])
    expect(member).toMatchObject({ username, roles: ['cashier', 'shipping'], disabled: false })
    const res = await login(username, password)
    expect(res.statusCode).toBe(200)
    const session = (await sessionWith(cookieOf(res))).json<{ data: StaffSession }>().data
    expect(session).toEqual({ staffId: member.id, username, roles: ['cashier', 'shipping'] })

    const listed = (await admin('GET', '/staff-members')).json<{ data: StaffMember[] }>().data
    expect(listed.find((m) => m.id === member.id)?.roles).toEqual(['cashier', 'shipping'])
  })

  it('refuses a taken username, an unknown role and a short password with coded errors', async () => {
    const { username } = await open(['support'])
    const taken = await admin('POST', '/staff-members', {
      username,
      password: 'a-long-password-1',
      roles: ['support'],
    })
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toMatchObject({ code: 'STAFF_USERNAME_TAKEN' })
    for (const body of [
      { username: 'x.new', password: 'a-long-password-1', roles: ['owner'] },
      { username: 'x.new', password: 'short', roles: ['support'] },
      { username: 'X New', password: 'a-long-password-1', roles: ['support'] },
      { username: 'x.new', password: 'a-long-password-1', roles: [] },
    ]) {
      const res = await admin('POST', '/staff-members', body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' })
    }
  })

  it('changes roles at once: the live session holds the new ones', async () => {
    const { member, username, password } = await open(['support'])
    const cookie = cookieOf(await login(username, password))
    const changed = await admin('POST', `/staff-members/${member.id}`, { roles: ['cataloguer'] })
    expect(changed.json<{ data: StaffMember }>().data.roles).toEqual(['cataloguer'])
    const session = (await sessionWith(cookie)).json<{ data: StaffSession }>().data
    expect(session.roles).toEqual(['cataloguer'])
  })

  it('disables an account: its sessions end and it cannot sign in, until enabled again', async () => {
    const { member, username, password } = await open(['support'])
    const cookie = cookieOf(await login(username, password))
    await admin('POST', `/staff-members/${member.id}`, { disabled: true })
    expect((await sessionWith(cookie)).statusCode).toBe(401)
    const refused = await login(username, password)
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toMatchObject({ code: 'STAFF_LOGIN_FAILED' })
    await admin('POST', `/staff-members/${member.id}`, { disabled: false })
    expect((await login(username, password)).statusCode).toBe(200)
  })

  it('a new password ends the old sessions and the old password', async () => {
    const { member, username, password } = await open(['support'])
    const cookie = cookieOf(await login(username, password))
    await admin('POST', `/staff-members/${member.id}`, { password: 'another-long-password' })
    expect((await sessionWith(cookie)).statusCode).toBe(401)
    expect((await login(username, password)).statusCode).toBe(401)
    expect((await login(username, 'another-long-password')).statusCode).toBe(200)
  })

  it('does not let an admin lock themselves out', async () => {
    const self = (await sessionWith(await adminCookie())).json<{ data: StaffSession }>().data
    for (const change of [{ disabled: true }, { roles: ['cashier'] }]) {
      const res = await admin('POST', `/staff-members/${self.staffId}`, change)
      expect(res.statusCode).toBe(409)
      expect(res.json()).toMatchObject({ code: 'STAFF_SELF_LOCKOUT' })
    }
    const unknown = await admin('POST', '/staff-members/999999', { roles: ['support'] })
    expect(unknown.statusCode).toBe(404)
  })

  it('logs who changed what, with before and after, and never the password', async () => {
    const { member } = await open(['support'])
    await admin('POST', `/staff-members/${member.id}`, {
      roles: ['support', 'shipping'],
      password: 'a-secret-password-2',
    })
    const lines = await auditOf(`staff:${member.id}`)
    expect(lines.map((l) => l.route)).toEqual([
      '/svc/main/admin/staff-members/:id',
      '/svc/main/admin/staff-members',
    ])
    const [change, create] = lines as [AuditEntry, AuditEntry]
    expect(change).toMatchObject({
      username: 'admin',
      method: 'POST',
      params: { id: member.id },
      statusCode: 200,
      errorCode: null,
      before: { roles: ['support'] },
      after: { roles: ['shipping', 'support'] },
    })
    expect(JSON.stringify(lines)).not.toContain('a-secret-password-2')
    expect(JSON.stringify(lines)).not.toContain('a-long-password-1')
    expect(create.body).toMatchObject({ password: '[redacted]', roles: ['support'] })
    expect(Date.parse(change.at)).toBeGreaterThan(0)
  })

  it('logs a retry with its Idempotency-Key, so a repeat reads as one movement', async () => {
    const user = await t.signIn()
    const cookie = await adminCookie()
    const credit = () =>
      t.inject({
        method: 'POST',
        url: `/svc/main/admin/users/${user.userId}/deposit`,
        cookies: { staff_sid: cookie },
        headers: { 'idempotency-key': 'deposit-retry-0001' },
        payload: { amount: 5_000 },
      })
    expect((await credit()).json()).toEqual({ data: { deposit: 5_000 } })
    expect((await credit()).json()).toEqual({ data: { deposit: 5_000 } })
    const lines = (
      await admin('GET', `/audit?route=${encodeURIComponent('/users/:userId/deposit')}`)
    ).json<{ data: AuditEntry[] }>().data
    const mine = lines.filter(
      (l) => (l.params as { userId: number }).userId === Number(user.userId),
    )
    expect(mine.map((l) => l.idempotencyKey)).toEqual(['deposit-retry-0001', 'deposit-retry-0001'])
  })

  it('names what a create made as the line’s target', async () => {
    const res = await admin('POST', '/specials', {
      title: '审计专场',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      endsAt: new Date(Date.now() + 7_200_000).toISOString(),
    })
    const { id } = res.json<{ data: { id: number } }>().data
    const lines = await auditOf(`special:${id}`)
    expect(lines.map((l) => l.route)).toEqual(['/svc/main/admin/specials'])
  })

  it('keeps the audit log for admins only', async () => {
    const support = await staffCaller(t, ['support'])
    expect((await support('GET', '/audit')).statusCode).toBe(403)
    expect((await support('GET', '/staff-members')).statusCode).toBe(403)
  })

  async function adminCookie(): Promise<string> {
    return cookieOf(await login('admin', 'staff-test-password'))
  }
})

describe.each(databases)('the last admin on $name', (kind) => {
  let t: TestApp
  afterAll(() => t.close())

  it('is kept even when the last two admins demote each other at once', async () => {
    t = await createTestApp(kind)
    const bootstrap = await staffCaller(t)
    const service = StaffService.forDatabase(t.database, t.clock)
    const caller = async (username: string): Promise<StaffCall> => {
      await service.create({ username, password: 'a-long-password-1', roles: ['admin'] })
      const res = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/login',
        payload: { username, password: 'a-long-password-1' },
      })
      const cookie = res.cookies.find((c) => c.name === 'staff_sid')!.value
      return (method, path, payload) =>
        t.inject({
          method,
          url: `/svc/main/admin${path}`,
          cookies: { staff_sid: cookie },
          ...(payload ? { payload } : {}),
        })
    }
    const [asA, asB] = [await caller('admin.a'), await caller('admin.b')]
    const members = (await asA('GET', '/staff-members')).json<{ data: StaffMember[] }>().data
    const id = (username: string) => members.find((m) => m.username === username)!.id
    // The bootstrap admin steps aside: A and B are the last two.
    expect(
      (await asA('POST', `/staff-members/${id('admin')}`, { disabled: true })).statusCode,
    ).toBe(200)
    expect((await bootstrap('GET', '/session')).statusCode).toBe(401)

    const answers = await Promise.all([
      asA('POST', `/staff-members/${id('admin.b')}`, { roles: ['support'] }),
      asB('POST', `/staff-members/${id('admin.a')}`, { roles: ['support'] }),
    ])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(answers.find((r) => r.statusCode === 409)!.json()).toMatchObject({
      code: 'STAFF_LAST_ADMIN',
    })
    const left = await service.list()
    expect(left.filter((m) => m.roles.includes('admin') && !m.disabled)).toHaveLength(1)
  })
})
