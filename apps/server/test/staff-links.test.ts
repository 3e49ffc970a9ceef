import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()
const HOUR = 3_600_000

/** Links and pictures staff enter reach the shop's pages: only ours or https (ADR 021). */
describe.each(databases)('links and pictures staff enter on $name', (kind) => {
  let t: TestApp
  let staff: StaffCall
  let specialId: number

  beforeAll(async () => {
    // Outside pictures only from the configured hosts (IMAGE_URL_HOSTS, issue 15).
    t = await createTestApp(kind, { imageHosts: ['cdn.example'] })
    staff = await staffCaller(t)
    const special = await staff('POST', '/specials', {
      title: '链接检查专场',
      startsAt: new Date(Date.now() + HOUR).toISOString(),
      endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
    })
    specialId = special.json<{ data: { id: number } }>().data.id
  })
  afterAll(() => t.close())

  const bad = [
    'javascript:alert(1)',
    'http://tracker.example/p.gif',
    '/\\evil.example',
    '//evil.example',
  ]

  it('refuses them as a special cover, lot and mall item pictures, banner links, with 400', async () => {
    for (const url of bad) {
      const calls = [
        staff('POST', '/specials', {
          title: '专场',
          startsAt: new Date(Date.now() + HOUR).toISOString(),
          endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
          cover: url,
        }),
        staff('PUT', `/specials/${specialId}`, { cover: url }),
        staff('POST', '/lots', { specialId, title: '拍品', startPrice: 10_000, images: [url] }),
        staff('POST', '/banners', {
          position: 1,
          title: '横幅',
          image: url,
          link: '/special/1',
          activeFrom: new Date().toISOString(),
        }),
      ]
      for (const res of await Promise.all(calls)) {
        expect({ url, status: res.statusCode }).toEqual({ url, status: 400 })
      }
    }
  })

  it('accepts our own paths and https', async () => {
    const res = await staff('POST', '/lots', {
      specialId,
      title: '拍品',
      startPrice: 10_000,
      images: ['/svc/media/art/x.svg', 'https://cdn.example/coin.jpg'],
    })
    expect(res.statusCode).toBe(200)
    // The same bodies as refused above, with a good picture: only the link decided.
    const banner = await staff('POST', '/banners', {
      position: 1,
      title: '横幅',
      image: '/svc/media/art/x.svg',
      link: '/special/1',
      activeFrom: new Date().toISOString(),
    })
    expect(banner.statusCode).toBe(200)
    const cover = await staff('PUT', `/specials/${specialId}`, {
      cover: 'https://cdn.example/c.jpg',
    })
    expect(cover.statusCode).toBe(200)
  })
})
