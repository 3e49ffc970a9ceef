import { PHOTO_SIZES, photoKeyOf } from '@numisma/contracts/staff-media'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { type StaffCall, staffCaller } from './helpers/mall-orders'

const databases = await testDatabases()

/** A landscape photo taken with the camera turned (EXIF orientation 6: shown rotated 90°). */
async function turnedPhoto(width: number, height: number): Promise<string> {
  const jpeg = await sharp({
    create: { width, height, channels: 3, background: { r: 180, g: 140, b: 60 } },
  })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer()
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`
}

describe.each(databases)('catalogue photos on $name', (kind) => {
  let t: TestApp
  let cataloguer: StaffCall
  let cashier: StaffCall

  beforeAll(async () => {
    t = await createTestApp(kind)
    cataloguer = await staffCaller(t, ['cataloguer'])
    cashier = await staffCaller(t, ['cashier'])
  })
  afterAll(() => t.close())

  it('re-encodes an upload upright, without metadata, into its three sizes served for good', async () => {
    const res = await cataloguer('POST', '/photos', { dataUrl: await turnedPhoto(3000, 2000) })
    expect(res.statusCode).toBe(200)
    const photo = res.json().data
    expect(photo.key).toMatch(/^[a-f0-9]{32}$/)
    expect(photoKeyOf(photo.url)).toBe(photo.key)
    // Turned upright: the 3000×2000 picture stands 2000 wide and 3000 tall, then fits 1600.
    expect([photo.width, photo.height]).toEqual([1067, 1600])

    for (const size of ['full', 'detail', 'thumb'] as const) {
      const got = await t.inject({
        method: 'GET',
        url: `/svc/media/photos/${photo.key}/${size}.jpg`,
      })
      expect(got.statusCode).toBe(200)
      expect(got.headers['content-type']).toBe('image/jpeg')
      expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      const meta = await sharp(got.rawPayload).metadata()
      expect(meta.format).toBe('jpeg')
      expect(Math.max(meta.width, meta.height)).toBe(PHOTO_SIZES[size])
      expect(meta.height > meta.width).toBe(true)
      expect(meta.exif).toBeUndefined()
      expect(meta.orientation).toBeUndefined()
    }
    expect(photo.thumbUrl).toBe(`/svc/media/photos/${photo.key}/thumb.jpg`)
  })

  it('never enlarges a small picture', async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 4, background: '#ffffff80' },
    })
      .png()
      .toBuffer()
    const res = await cataloguer('POST', '/photos', {
      dataUrl: `data:image/png;base64,${png.toString('base64')}`,
    })
    expect(res.json().data).toMatchObject({ width: 300, height: 200 })
  })

  it('refuses what is no picture with a code, and a role that does not catalogue', async () => {
    const bad = await cataloguer('POST', '/photos', {
      dataUrl: `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`,
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('PHOTO_INVALID')

    const forbidden = await cashier('POST', '/photos', { dataUrl: await turnedPhoto(40, 30) })
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().code).toBe('FORBIDDEN')
  })

  it('takes a picture of several megabytes (above the default body limit)', async () => {
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 1400 * 1400 * 3 }, () => Math.floor(Math.random() * 256))),
      {
        raw: { width: 1400, height: 1400, channels: 3 },
      },
    )
      .png({ compressionLevel: 0 })
      .toBuffer()
    expect(noisy.length).toBeGreaterThan(5_000_000)
    const res = await cataloguer('POST', '/photos', {
      dataUrl: `data:image/png;base64,${noisy.toString('base64')}`,
    })
    expect(res.statusCode).toBe(200)
  })

  it('answers 404 for an unknown key', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `/svc/media/photos/${'0'.repeat(32)}/thumb.jpg`,
    })
    expect(res.statusCode).toBe(404)
  })
})
