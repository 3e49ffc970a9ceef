import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StaffService } from '../src/modules/staff/service'
import { loadConfig } from '../src/platform/config'
import { DEMO_USERS } from '../src/seed/demo'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

/**
 * Issue 15: a production server must not seed demo users with deposits unless told to, nor hand
 * every visitor the API description with all the staff routes.
 */
const databases = await testDatabases()
const serverRoot = path.resolve(import.meta.dirname, '..')

describe('the seed in production', () => {
  it('is none when SEED is unset (NUMISMA_ENV or NODE_ENV production)', () => {
    expect(loadConfig({ NUMISMA_ENV: 'production' }).seed).toBe('none')
    expect(loadConfig({ NODE_ENV: 'production' }).seed).toBe('none')
    expect(loadConfig({}).seed).toBe('demo')
    expect(loadConfig({ NUMISMA_ENV: 'production', SEED: 'demo' }).seed).toBe('demo')
  })

  describe('a production server started without SEED', () => {
    let dataDir: string
    let child: ChildProcess | undefined
    beforeAll(() => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-prod-seed-'))
    })
    afterAll(async () => {
      if (child && child.exitCode === null) {
        const gone = new Promise((resolve) => child!.once('exit', resolve))
        child.kill('SIGTERM')
        await gone
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    })

    it('has no demo users and no catalogue', { timeout: 90_000 }, async () => {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        NUMISMA_ENV: 'production',
        // Any free port: the test only waits for the server to come up, and a fixed one clashes.
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIST: '/nonexistent',
        NUMISMA_ADMIN_PASSWORD: 'seed-test-password',
        PAY_PASSWORD_PEPPER: 'test-pepper-of-sixteen-chars-or-more',
        // Production refuses to start without a chosen SMS provider; sandbox sends no texts.
        SMS_PROVIDER: 'sandbox',
        LOG_FORMAT: 'json',
      }
      const output: string[] = []
      child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        cwd: serverRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const up = new Promise<void>((resolve, reject) => {
        const look = (chunk: Buffer) => {
          output.push(chunk.toString())
          if (output.join('').includes('Numisma is up')) resolve()
        }
        child!.stdout!.on('data', look)
        child!.stderr!.on('data', look)
        child!.once('exit', (code) => reject(new Error(`exited ${code}: ${output.join('')}`)))
      })
      await up
      const stopped = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      await stopped

      const db = new SQLite(path.join(dataDir, 'numisma.db'), { readonly: true })
      try {
        const count = (table: string) =>
          (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n
        expect(count('users')).toBe(0)
        expect(count('lots')).toBe(0)
        const mobiles = DEMO_USERS.map((u) => u.mobile)
        const demo = db
          .prepare(
            `select count(*) as n from users where mobile in (${mobiles.map(() => '?').join(', ')})`,
          )
          .get(...mobiles) as { n: number }
        expect(demo.n).toBe(0)
      } finally {
        db.close()
      }
      expect(output.join('')).not.toMatch(/demo data seeded/)
    })
  })
})

describe.each(databases)('the API docs on $name', (kind) => {
  describe('in production', () => {
    let t: TestApp
    let staffCookie: string
    beforeAll(async () => {
      t = await createTestApp(kind, { env: 'production' })
      const password = 'docs-test-password'
      await StaffService.forDatabase(t.database, t.clock).bootstrap(password)
      const login = await t.inject({
        method: 'POST',
        url: '/svc/main/admin/login',
        payload: { username: 'admin', password },
      })
      const cookie = login.cookies.find((c) => c.name === 'staff_sid')
      if (!cookie) throw new Error(`staff login failed: ${login.body}`)
      // Under the staff cookie's path, so a signed-in browser sends it.
      expect(cookie.path).toBe('/svc/main/admin')
      staffCookie = cookie.value
    })
    afterAll(() => t.close())

    it('are not public at /svc/docs', async () => {
      for (const url of [
        '/svc/docs',
        '/svc/docs/json',
        '/svc/docs/yaml',
        '/svc/docs/static/index.html',
      ]) {
        const res = await t.inject({ method: 'GET', url })
        expect(res.statusCode, url).toBe(404)
        expect(res.body).not.toMatch(/admin/)
      }
    })

    it('refuse a caller without a staff session under the staff path', async () => {
      for (const url of ['/svc/main/admin/docs', '/svc/main/admin/docs/json']) {
        const anonymous = await t.inject({ method: 'GET', url })
        expect(anonymous.statusCode, url).toBe(401)
        // The shop's refusal, not Fastify's default {statusCode, error, message}.
        expect(anonymous.json()).toEqual({ code: 'UNAUTHENTICATED', message: expect.any(String) })
        const forged = await t.inject({ method: 'GET', url, cookies: { staff_sid: 'forged' } })
        expect(forged.statusCode, url).toBe(401)
      }
      const user = await t.signIn()
      const buyer = await t.inject({
        method: 'GET',
        url: '/svc/main/admin/docs/json',
        cookies: { sid: user.sid },
      })
      expect(buyer.statusCode).toBe(401)
    })

    it('are served to a signed-in staff member', async () => {
      const json = await t.inject({
        method: 'GET',
        url: '/svc/main/admin/docs/json',
        cookies: { staff_sid: staffCookie },
      })
      expect(json.statusCode).toBe(200)
      expect(Object.keys(json.json<{ paths: object }>().paths)).toContain('/svc/main/admin/login')
      const ui = await t.inject({
        method: 'GET',
        url: '/svc/main/admin/docs',
        cookies: { staff_sid: staffCookie },
      })
      expect(ui.statusCode).toBeLessThan(400)
    })
  })

  describe('outside production', () => {
    let t: TestApp
    beforeAll(async () => {
      t = await createTestApp(kind)
    })
    afterAll(() => t.close())

    it('stay open at /svc/docs', async () => {
      const json = await t.inject({ method: 'GET', url: '/svc/docs/json' })
      expect(json.statusCode).toBe(200)
      expect(Object.keys(json.json<{ paths: object }>().paths)).toContain('/svc/main/admin/login')
      expect((await t.inject({ method: 'GET', url: '/svc/docs' })).statusCode).toBeLessThan(400)
    })
  })
})
