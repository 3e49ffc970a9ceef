import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHARE_PNG_MISSES_PER_MINUTE, artworkUrl } from '../src/modules/media/routes'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

// The media routes read no table; each database still gets its run, as every server test does.
describe.each(databases)('share pictures of our artwork on $name', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('serves a 300×300 PNG of an SVG picture at the same path with .png, cached for good', async () => {
    const svgUrl = artworkUrl({
      kind: 'note',
      seed: 7,
      face: '壹圆',
      legend: '中国人民银行',
      serial: 'AB 123456',
      hue: 200,
      side: 'obverse',
    })
    const png = await t.inject({ method: 'GET', url: svgUrl.replace(/\.svg$/, '.png') })
    expect(png.statusCode).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(png.rawPayload.subarray(0, 8).equals(PNG_MAGIC)).toBe(true)
    const meta = await sharp(png.rawPayload).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 300, 300])
    // Drawn, not blank: a banknote has more than one colour.
    const stats = await sharp(png.rawPayload).stats()
    expect(stats.isOpaque).toBe(true)
    expect(stats.channels.some((c) => c.max - c.min > 50)).toBe(true)

    const again = await t.inject({ method: 'GET', url: svgUrl.replace(/\.svg$/, '.png') })
    expect(again.rawPayload.equals(png.rawPayload)).toBe(true)
  })

  it('404s a PNG of no artwork, and refuses other extensions and oversized tokens', async () => {
    const forged = await t.inject({ method: 'GET', url: '/svc/media/art/bm90LWpzb24.png' })
    expect(forged.statusCode).toBe(404)
    expect(forged.json().code).toBe('NOT_FOUND')
    const gif = await t.inject({ method: 'GET', url: '/svc/media/art/bm90LWpzb24.gif' })
    expect(gif.statusCode).toBe(400)
    const tooLong = await t.inject({ method: 'GET', url: `/svc/media/art/${'a'.repeat(2000)}.png` })
    expect(tooLong.statusCode).toBe(414)
  })

  it("limits a caller's uncached renderings, not cached ones, and keys one picture once however spelled", async () => {
    // The limiter counts in Redis, shared by both databases' runs and by reruns within the minute.
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.2`
    const art = {
      kind: 'coin',
      seed: 1,
      face: '壹',
      legend: 'L',
      metal: 'gold',
      holed: false,
      side: 'obverse',
    } as const
    const first = await t.inject({
      method: 'GET',
      url: artworkUrl(art).replace(/\.svg$/, '.png'),
      remoteAddress: ip,
    })
    expect(first.statusCode).toBe(200)
    // The same picture with its fields in another order: a cache hit, so never refused below.
    const { seed, ...rest } = art
    const respelled = `/svc/media/art/${Buffer.from(JSON.stringify({ ...rest, seed })).toString('base64url')}.png`
    // One after another: the plugin's memory store hands parallel callers one shared counter, so
    // a parallel burst over the limit is refused whole.
    const misses = []
    for (let i = 0; i < SHARE_PNG_MISSES_PER_MINUTE; i++) {
      misses.push(
        await t.inject({
          method: 'GET',
          url: artworkUrl({ ...art, seed: 1000 + i }).replace(/\.svg$/, '.png'),
          remoteAddress: ip,
        }),
      )
    }
    const codes = misses.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 429)).toHaveLength(1)
    expect(misses.find((r) => r.statusCode === 429)!.json().code).toBe('RATE_LIMITED')
    const hit = await t.inject({ method: 'GET', url: respelled, remoteAddress: ip })
    expect(hit.statusCode).toBe(200)
    expect(hit.rawPayload.equals(first.rawPayload)).toBe(true)
    // Another caller is not limited by this one.
    const other = await t.inject({
      method: 'GET',
      url: artworkUrl({ ...art, seed: 5000 }).replace(/\.svg$/, '.png'),
      remoteAddress: `${ip}1`,
    })
    expect(other.statusCode).toBe(200)
  })
})
