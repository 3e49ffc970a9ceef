import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

/**
 * Starts the real server process — exactly what `npm start` runs, on a free port with a fresh
 * SQLite data directory and demo data — and hands its URL to the browser journeys.
 */
const root = path.resolve(import.meta.dirname, '..')

/** The staff password the e2e server is started with. */
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`)
    try {
      const res = await fetch(`${url}/svc/health`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`server did not become healthy:\n${log()}`)
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` (npm test does it for you)')
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-e2e-'))
  const port = await freePort()
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: 'demo',
      NUMISMA_ENV: 'development',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NUMISMA_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      // Every journey's users sign in by SMS from 127.0.0.1: past 30 in an hour the suite's later
      // journeys were refused RATE_LIMITED. The limit itself is tested in the server suite.
      SMS_PER_ADDRESS_PER_HOUR: '10000',
      // The console's journeys sign staff of each role in through the form.
      STAFF_LOGINS_PER_WINDOW: '10000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const baseUrl = `http://127.0.0.1:${port}`
  await waitForHealth(baseUrl, child, () => output)
  project.provide('baseUrl', baseUrl)
  // One staff sign-in for the whole run: staff logins are rate-limited (10 a window), and every
  // journey that lists an item or a coupon acts as staff.
  project.provide('staffCookie', await staffLogin(baseUrl, E2E_ADMIN_PASSWORD))

  return async () => {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The cookie of a staff session (`admin` unless named), signed in with `password`. */
export async function staffLogin(
  baseUrl: string,
  password: string,
  username = 'admin',
): Promise<string> {
  const res = await fetch(`${baseUrl}/svc/main/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  if (!res.ok) throw new Error(`staff login → ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

declare module 'vitest' {
  export interface ProvidedContext {
    staffCookie: string
    baseUrl: string
  }
}
