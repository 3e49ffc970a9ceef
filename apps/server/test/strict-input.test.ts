import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()
const HOUR = 3_600_000

/** Every way `Number()` would read as `id`, which must be refused (issue 15, finding 6). */
function lenientForms(id: number): string[] {
  return [
    `${id}.`,
    `${id}.0`,
    `+${id}`,
    `0000000000${id}`,
    `0${id}`,
    `%20${id}`,
    `${id}%20`,
    `${id}e0`,
    `0x${id.toString(16)}`,
    `-${id}`,
    '0',
  ]
}

describe.each(databases)('ids and pictures staff enter, strictly, on $name', (kind) => {
  let t: TestApp
  let staff: StaffCall
  let user: Session
  let userId: number
  let specialId: number
  let lotId: number
  let mallItemId: number

  beforeAll(async () => {
    t = await createTestApp(kind, { imageHosts: ['img.example.com'] })
    staff = await staffCaller(t)
    user = await t.signIn()
    userId = Number(user.userId)
    const special = await staff('POST', '/specials', {
      title: '编号检查专场',
      startsAt: new Date(Date.now() + HOUR).toISOString(),
      endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
    })
    specialId = special.json<{ data: { id: number } }>().data.id
    const lot = await staff('POST', '/lots', { specialId, title: '拍品', startPrice: 10_000 })
    lotId = lot.json<{ data: { id: number } }>().data.id
    const item = await staff('POST', '/mall-items', { title: '商品', price: 1000, stock: 1 })
    mallItemId = item.json<{ data: { id: number } }>().data.id
  })
  afterAll(() => t.close())

  it('answers a staff route for a plain id and 400 VALIDATION_FAILED for every other spelling', async () => {
    const credit = (id: string) => staff('POST', `/users/${id}/deposit`, { amount: 100 })
    expect((await credit(String(userId))).statusCode).toBe(200)
    for (const form of lenientForms(userId)) {
      const res = await credit(form)
      expect({ form, status: res.statusCode, code: res.json<{ code: string }>().code }).toEqual({
        form,
        status: 400,
        code: 'VALIDATION_FAILED',
      })
    }
  })

  it('does the same on a user route and in a query string', async () => {
    const ok = await t.call({ method: 'GET', path: `/user/${userId}/@trade`, as: user })
    expect(ok.statusCode).toBe(200)
    for (const form of lenientForms(userId)) {
      for (const path of [
        `/user/${form}/@trade`,
        `/auction/${lotId}/@attention?userId=${form}`,
        `/auction/${form},${lotId}/@attention`,
      ]) {
        const res = await t.call({ method: 'GET', path, as: user })
        expect({ path, status: res.statusCode, code: res.json<{ code: string }>().code }).toEqual({
          path,
          status: 400,
          code: 'VALIDATION_FAILED',
        })
      }
    }
  })

  it('does the same on a public route', async () => {
    expect((await t.call({ method: 'GET', path: `/auction/${lotId}` })).statusCode).toBe(200)
    for (const form of lenientForms(lotId)) {
      const res = await t.call({ method: 'GET', path: `/auction/${form}` })
      expect({ form, status: res.statusCode, code: res.json<{ code: string }>().code }).toEqual({
        form,
        status: 400,
        code: 'VALIDATION_FAILED',
      })
    }
  })

  const refusedPictures = [
    'javascript:alert(1)',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'http://img.example.com/a.jpg',
    'https://tracker.example/p.gif',
    'https://img.example.com.evil.example/a.jpg',
    '/special/1',
    '/svc/media/../main/admin/users',
  ]

  it('refuses every such picture as a cover, lot, mall item or banner picture, and in an import', async () => {
    for (const url of refusedPictures) {
      const calls = {
        newSpecial: staff('POST', '/specials', {
          title: '专场',
          startsAt: new Date(Date.now() + HOUR).toISOString(),
          endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
          cover: url,
        }),
        special: staff('PUT', `/specials/${specialId}`, { cover: url }),
        lot: staff('POST', '/lots', {
          specialId,
          title: '拍品',
          startPrice: 10_000,
          images: [url],
        }),
        mallItem: staff('PUT', `/mall-items/${mallItemId}`, {
          title: '商品',
          price: 1000,
          images: ['/svc/media/art/x.svg', url],
        }),
        banner: staff('POST', '/banners', {
          position: 1,
          title: '横幅',
          image: url,
          link: '/special/1',
          activeFrom: new Date().toISOString(),
        }),
      }
      for (const [name, call] of Object.entries(calls)) {
        const res = await call
        expect({
          url,
          name,
          status: res.statusCode,
          code: res.json<{ code: string }>().code,
        }).toEqual({ url, name, status: 400, code: 'VALIDATION_FAILED' })
      }
    }
  })

  it('refuses a banner link to a script or data, and keeps shop paths and https links', async () => {
    for (const link of ['javascript:alert(1)', 'data:text/html,<script>1</script>']) {
      const res = await staff('POST', '/banners', {
        position: 1,
        title: '横幅',
        image: '/svc/media/art/x.svg',
        link,
        activeFrom: new Date().toISOString(),
      })
      expect({ link, status: res.statusCode }).toEqual({ link, status: 400 })
    }
    for (const link of ['/special/1', 'https://elsewhere.example/page']) {
      const res = await staff('POST', '/banners', {
        position: 1,
        title: '横幅',
        image: 'https://img.example.com/b.jpg',
        link,
        activeFrom: new Date().toISOString(),
      })
      expect({ link, status: res.statusCode }).toEqual({ link, status: 200 })
    }
  })

  it('accepts our own media and https on a configured host', async () => {
    const res = await staff('POST', '/lots', {
      specialId,
      title: '拍品',
      startPrice: 10_000,
      images: ['/svc/media/art/x.svg', 'https://img.example.com/coin.jpg'],
    })
    expect(res.statusCode).toBe(200)
    const cover = await staff('PUT', `/specials/${specialId}`, {
      cover: 'https://IMG.example.com/c.jpg',
    })
    expect(cover.statusCode).toBe(200)
  })
})

describe.each(databases)('pictures with no image host configured on $name', (kind) => {
  let t: TestApp
  let staff: StaffCall
  beforeAll(async () => {
    t = await createTestApp(kind)
    staff = await staffCaller(t)
  })
  afterAll(() => t.close())

  it('takes only our own media', async () => {
    const special = (cover: string) =>
      staff('POST', '/specials', {
        title: '专场',
        startsAt: new Date(Date.now() + HOUR).toISOString(),
        endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
        cover,
      })
    expect((await special('/svc/media/photos/ab12/full.jpg')).statusCode).toBe(200)
    expect((await special('https://img.example.com/c.jpg')).statusCode).toBe(400)
  })

  it('never answers 5xx to a body nested thousands deep on a route without a body schema', async () => {
    // Sent as text: JSON.stringify itself overflows on such a value. staffCaller's admin signs in.
    const login = await t.inject({
      method: 'POST',
      url: '/svc/main/admin/login',
      payload: { username: 'admin', password: 'staff-test-password' },
    })
    const staffSid = login.cookies.find((c) => c.name === 'staff_sid')?.value ?? ''
    for (const payload of [
      '['.repeat(20_000) + ']'.repeat(20_000),
      '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
    ]) {
      const res = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/coupons/999/stop',
        headers: { 'content-type': 'application/json' },
        cookies: { staff_sid: staffSid },
        payload,
      })
      expect(res.statusCode).toBe(404)
      expect(res.json<{ code: string }>().code).toMatch(/NOT_FOUND/)
    }
  })
})
