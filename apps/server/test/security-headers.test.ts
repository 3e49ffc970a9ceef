import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CLIENT_CONFIG_GLOBAL, FIRST_SCREEN_GLOBAL } from '@numisma/contracts/client-config'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { workspaceRoot } from '../src/platform/config'
import { RESOURCE_CSP, shopDirectives } from '../src/platform/security-headers'
import { seedCatalogue } from '../src/seed/catalogue'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

const ROOT = workspaceRoot(import.meta.dirname)
const PUSH_PARTNER = 'https://partner.example.com'
const ASSET = 'assets/app-abc123.js'

/** The web app's own index.html source (its placeholder and module script) in a dist of its own. */
function builtDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-headers-'))
  fs.mkdirSync(path.join(dist, 'assets'))
  const source = fs.readFileSync(path.join(ROOT, 'apps/web/index.html'), 'utf8')
  for (const name of ['index.html', 'passport.html', 'admin.html']) {
    fs.writeFileSync(path.join(dist, name), source)
  }
  fs.writeFileSync(path.join(dist, ASSET), 'export const shop = 1\n')
  return dist
}

/** The CSP as a map of directive → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy']
  expect(typeof header, 'content-security-policy').toBe('string')
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  )
}

/** JSON, files and errors that are not pages: the short policy and the headers any answer needs. */
function expectResourceHeaders(res: LightMyRequestResponse, what: string): void {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff')
  expect(res.headers['x-frame-options'], what).toBe('DENY')
  expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin')
  expect(res.headers['content-security-policy'], what).toBe(RESOURCE_CSP)
  expect(res.headers['permissions-policy'], what).toBeUndefined()
  expect(res.headers['strict-transport-security'], what).toBeUndefined()
}

function expectShopHeaders(res: LightMyRequestResponse, what: string): void {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff')
  expect(res.headers['x-frame-options'], what).toBe('DENY')
  expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin')
  const permissions = String(res.headers['permissions-policy'])
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
    expect(permissions, what).toContain(`${feature}=()`)
  }
  const policy = csp(res)
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"])
  expect(policy.get('default-src'), what).toEqual(["'self'"])
  expect(policy.get('object-src'), what).toEqual(["'none'"])
  expect(policy.get('script-src'), what).not.toContain("'unsafe-inline'")
  expect(policy.get('script-src'), what).toContain("'self'")
  // Plain http: never HSTS.
  expect(res.headers['strict-transport-security'], what).toBeUndefined()
}

/** Every `<script>` either loads a file or is a JSON data block: nothing inline runs. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/\bsrc=/.test(attrs!) && !/type="application\/json"/.test(attrs!))
    .map(([whole]) => whole)
}

function dataBlock(html: string, id: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(html)
  return match ? (JSON.parse(match[1]!) as unknown) : undefined
}

describe.each(databases)('security headers (issue 15) on $name', (kind) => {
  let t: TestApp
  let dist: string

  beforeAll(async () => {
    dist = builtDist()
    t = await createTestApp(kind, {
      webDist: dist,
      // The proxy's address: Fastify takes X-Forwarded-Proto only from a proxy it can name (a hop
      // count trusts no peer for the protocol), so HSTS behind a proxy needs TRUST_PROXY=<address>.
      trustProxy: '127.0.0.1',
      push: { allowedOrigins: [PUSH_PARTNER] },
    })
    await seedCatalogue(new CatalogRepository(t.database.db), t.clock.now())
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  it('sends every header on a JSON answer, a page, a static file and an error', async () => {
    const answers: [string, LightMyRequestResponse][] = [
      ['api', await t.call({ method: 'GET', path: '/special/V1' })],
      ['health', await t.inject({ method: 'GET', url: '/svc/health' })],
      ['index.html', await t.inject({ method: 'GET', url: '/' })],
      ['spa route', await t.inject({ method: 'GET', url: '/ucenter' })],
      ['passport', await t.inject({ method: 'GET', url: '/passport' })],
      ['console', await t.inject({ method: 'GET', url: '/admin' })],
      ['asset', await t.inject({ method: 'GET', url: `/${ASSET}` })],
      ['unsigned', await t.inject({ method: 'GET', url: '/svc/main/special/V1' })],
      ['not found', await t.inject({ method: 'GET', url: '/svc/nothing-here' })],
      ['missing asset', await t.inject({ method: 'GET', url: '/assets/gone-1.js' })],
    ]
    const [api, , page, , , , asset, unsigned, missing] = answers.map(([, res]) => res)
    expect(api!.statusCode).toBe(200)
    expect(page!.headers['content-type']).toContain('text/html')
    expect(asset!.statusCode).toBe(200)
    expect(unsigned!.statusCode).toBe(401)
    expect(missing!.statusCode).toBe(404)
    for (const [what, res] of answers) {
      if (String(res.headers['content-type']).startsWith('text/html')) expectShopHeaders(res, what)
      else expectResourceHeaders(res, what)
    }
    // The page set costs a kilobyte; a file or answer of a landing page carries a third of it.
    const headerBytes = (res: LightMyRequestResponse) =>
      Object.entries(res.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0)
    expect(headerBytes(asset!)).toBeLessThan(600)
    expect(headerBytes(api!)).toBeLessThan(600)
  })

  it('sends HSTS only when the request came over https through a trusted proxy', async () => {
    const viaProxy = await t.inject({
      method: 'GET',
      url: '/svc/health',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    })
    expect(viaProxy.headers['strict-transport-security']).toMatch(/^max-age=31536000/)
    const page = await t.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(page.headers['strict-transport-security']).toMatch(/^max-age=31536000/)
    const plain = await t.inject({ method: 'GET', url: '/svc/health' })
    expect(plain.headers['strict-transport-security']).toBeUndefined()
  })

  it('ignores X-Forwarded-Proto from a client when no proxy is trusted', async () => {
    const direct = await createTestApp(kind)
    try {
      const res = await direct.inject({
        method: 'GET',
        url: '/svc/health',
        headers: { 'x-forwarded-proto': 'https' },
      })
      expect(res.headers['strict-transport-security']).toBeUndefined()
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    } finally {
      await direct.close()
    }
  })

  it('lets the pages open the push socket to this host and to the configured origins', async () => {
    const res = await t.inject({ method: 'GET', url: '/', headers: { host: 'shop.example:8080' } })
    const connect = csp(res).get('connect-src')
    expect(connect).toContain("'self'")
    expect(connect).toContain('ws://shop.example:8080')
    expect(connect).toContain('wss://shop.example:8080')
    expect(connect).toContain('wss://partner.example.com')
    // A forged Host cannot write into the policy.
    const forged = await t.inject({
      method: 'GET',
      url: '/',
      headers: { host: "x; script-src 'unsafe-inline'" },
    })
    expect(csp(forged).get('script-src')).not.toContain("'unsafe-inline'")
  })

  it('runs no inline script: the config and first answers are JSON data blocks', async () => {
    const config = (await t.inject({ method: 'GET', url: '/svc/client-config' })).json<{
      data: unknown
    }>().data
    for (const url of ['/', '/passport', '/admin', '/ucenter']) {
      const html = (await t.inject({ method: 'GET', url })).body
      expect(inlineScripts(html), url).toEqual([])
      expect(dataBlock(html, CLIENT_CONFIG_GLOBAL), url).toEqual(config)
    }
    // The landing page's inlined answers are a data block too, keyed by the URLs the client calls.
    const home = (await t.inject({ method: 'GET', url: '/' })).body
    const first = dataBlock(home, FIRST_SCREEN_GLOBAL) as Record<string, unknown>
    expect(Object.keys(first)).toContain('/svc/main/special/V1')
  })

  it('checks the built web app too, when it is built', async (ctx) => {
    const built = path.join(ROOT, 'apps/web/dist')
    if (!fs.existsSync(path.join(built, 'index.html'))) return ctx.skip()
    const real = await createTestApp(kind, { webDist: built })
    try {
      for (const url of ['/', '/passport', '/admin']) {
        const html = (await real.inject({ method: 'GET', url })).body
        expect(inlineScripts(html), url).toEqual([])
        expect(dataBlock(html, CLIENT_CONFIG_GLOBAL), url).toBeTruthy()
      }
    } finally {
      await real.close()
    }
  })

  it('gives swagger-ui its own policy, only under its prefix', async () => {
    const docs = await t.inject({ method: 'GET', url: '/svc/docs/' })
    expect(docs.statusCode).toBe(200)
    const policy = csp(docs)
    expect(policy.get('img-src')).toContain('https:')
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(policy.get('frame-ancestors')).toEqual(["'none'"])
    expect(docs.headers['x-content-type-options']).toBe('nosniff')
    const shop = csp(await t.inject({ method: 'GET', url: '/' }))
    expect(shop.get('img-src')).not.toContain('https:')
  })

  it('keeps eval out of production', async () => {
    const prod = await createTestApp(kind, { env: 'production' })
    try {
      // The pages' policy (answers that are not pages allow no script at all).
      expect(shopDirectives({ env: 'production' }).scriptSrc).toEqual(["'self'"])
      expect(shopDirectives({ env: 'development' }).scriptSrc).toContain("'unsafe-eval'")
      const res = await prod.inject({ method: 'GET', url: '/svc/health' })
      expect(res.headers['content-security-policy']).toBe(RESOURCE_CSP)
    } finally {
      await prod.close()
    }
  })
})
