import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artworkUrl } from '../src/modules/media/routes'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { preferredEncoding } from '../src/platform/web-app'
import { seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { listen, openPush } from './helpers/push-client'

const databases = await testDatabases()

/** A hashed bundle the way the web build leaves it: the file, its .br and its .gz (issue 13). */
const ASSET = 'assets/app-abc123.js'
const SOURCE = Array.from(
  { length: 200 },
  (_, i) => `export const value${i} = ${JSON.stringify(`lot ${i}`)}`,
).join('\n')

function builtDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-dist-'))
  fs.mkdirSync(path.join(dist, 'assets'))
  // Over the 1 KB threshold once the config is inlined, as the real page is.
  const page = `<html><head><!--numisma-config--></head><body>${'<p>shop</p>'.repeat(150)}</body></html>`
  for (const name of ['index.html', 'passport.html', 'admin.html']) {
    fs.writeFileSync(path.join(dist, name), page)
    // The build compresses the raw pages too; only the rendered copies may be served.
    fs.writeFileSync(path.join(dist, `${name}.br`), zlib.brotliCompressSync(page))
    fs.writeFileSync(path.join(dist, `${name}.gz`), zlib.gzipSync(page))
  }
  fs.writeFileSync(path.join(dist, ASSET), SOURCE)
  fs.writeFileSync(path.join(dist, `${ASSET}.br`), zlib.brotliCompressSync(SOURCE))
  fs.writeFileSync(path.join(dist, `${ASSET}.gz`), zlib.gzipSync(SOURCE, { level: 9 }))
  // Under 1 KB: the build leaves it alone.
  fs.writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'console.log(1)')
  return dist
}

describe.each(databases)('compression (issue 13) on $name', (kind) => {
  let t: TestApp
  let dist: string

  beforeAll(async () => {
    dist = builtDist()
    t = await createTestApp(kind, { webDist: dist })
    await seedCatalogue(new CatalogRepository(t.database.db), t.clock.now())
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  const asset = (acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.inject({
      method,
      url: `/${ASSET}`,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    })

  it('serves the precompressed .br of an asset to a browser that takes br, cached for good', async () => {
    const res = await asset('gzip, deflate, br')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(Number(res.headers['content-length'])).toBe(
      fs.statSync(path.join(dist, `${ASSET}.br`)).size,
    )
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SOURCE)
  })

  it('serves the .gz to a browser that takes only gzip', async () => {
    const res = await asset('gzip')
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.headers['cache-control']).toContain('immutable')
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(SOURCE)
  })

  it('serves the file itself without an accept-encoding, still varying on it', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const res = await asset(acceptEncoding)
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.headers['cache-control']).toContain('immutable')
      expect(res.body).toBe(SOURCE)
    }
  })

  it('answers HEAD for a compressed asset with its headers and no body', async () => {
    const res = await asset('br', 'HEAD')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.rawPayload.length).toBe(0)
  })

  it('does not serve the .br and .gz files at their own URLs', async () => {
    for (const url of [`/${ASSET}.br`, `/${ASSET}.gz`, '/index.html.br', '/admin.html.gz']) {
      const res = await t.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
      expect(res.statusCode, url).toBe(404)
    }
    // The raw page under its own name, asked for compressed: not the .br beside it either.
    const rawPage = await t.inject({
      method: 'GET',
      url: '/index.html',
      headers: { 'accept-encoding': 'br' },
    })
    expect(rawPage.statusCode).toBe(404)
    expect(rawPage.headers['content-encoding']).toBeUndefined()
  })

  it('compresses the HTML pages, config inlined', async () => {
    for (const url of ['/', '/ucenter', '/passport', '/admin/chat']) {
      const res = await t.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-encoding'], url).toBe('br')
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.headers['cache-control']).toBe('no-cache')
      const html = zlib.brotliDecompressSync(res.rawPayload).toString()
      expect(html).toContain('id="__NUMISMA_CONFIG__">')
    }
    const gzip = await t.inject({
      method: 'GET',
      url: '/nope',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain('id="__NUMISMA_CONFIG__">')
    const plain = await t.inject({ method: 'GET', url: '/' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/accept-encoding/i)
    expect(plain.body).toContain('id="__NUMISMA_CONFIG__">')
  })

  it('compresses a large API response, br before gzip', async () => {
    const plain = await t.call({ method: 'GET', path: '/special/V1' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(1024)

    const br = await t.call({
      method: 'GET',
      path: '/special/V1',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length)
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length)
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json())

    const gzip = await t.call({
      method: 'GET',
      path: '/special/V1',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json())
  })

  it('leaves a small API response and the coded errors as they are, with their length', async () => {
    const time = await t.call({
      method: 'GET',
      path: '/pub/@time',
      headers: { 'accept-encoding': 'br' },
    })
    expect(time.statusCode).toBe(200)
    expect(time.headers['content-encoding']).toBeUndefined()
    expect(Number(time.headers['content-length'])).toBe(time.rawPayload.length)
    expect(time.json().data).toBeDefined()

    const unsigned = await t.inject({
      method: 'GET',
      url: '/svc/main/special/V1',
      headers: { 'accept-encoding': 'br' },
    })
    expect(unsigned.statusCode).toBe(401)
    expect(unsigned.headers['content-encoding']).toBeUndefined()
    expect(unsigned.json().code).toBeDefined()

    const head = await t.inject({
      method: 'HEAD',
      url: '/svc/health',
      headers: { 'accept-encoding': 'br' },
    })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-encoding']).toBeUndefined()
  })

  it('does not compress pictures again', async () => {
    const svgUrl = artworkUrl({
      kind: 'note',
      seed: 7,
      face: '壹圆',
      legend: '中国人民银行',
      serial: 'AB 123456',
      hue: 200,
      side: 'obverse',
    })
    const png = await t.inject({
      method: 'GET',
      url: svgUrl.replace(/\.svg$/, '.png'),
      headers: { 'accept-encoding': 'br' },
    })
    expect(png.statusCode).toBe(200)
    expect(png.headers['content-type']).toBe('image/png')
    expect(png.headers['content-encoding']).toBeUndefined()
  })

  it('still upgrades the push socket and serves over a real connection', async () => {
    const base = await listen(t.app)
    const push = await openPush(base, { headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(push.socket.readyState).toBe(push.socket.OPEN)
    push.socket.close()

    const raw = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(`${base}/${ASSET}`, { headers: { 'accept-encoding': 'br' } }, (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
          })
          .on('error', reject)
      },
    )
    expect(raw.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(raw.body).toString()).toBe(SOURCE)
  })
})

describe('choosing the encoding of a page', () => {
  it('takes br before gzip, honours q-values and refusals', () => {
    expect(preferredEncoding(undefined)).toBeUndefined()
    expect(preferredEncoding('identity')).toBeUndefined()
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br')
    expect(preferredEncoding('gzip, deflate')).toBe('gzip')
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip')
    expect(preferredEncoding('gzip;q=1, br;q=0.5')).toBe('gzip')
    expect(preferredEncoding('*')).toBe('br')
    expect(preferredEncoding('*;q=0, identity')).toBeUndefined()
  })
})
