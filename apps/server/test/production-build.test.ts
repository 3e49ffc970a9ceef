import { type ChildProcess, execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from './helpers/ports'

/**
 * The production server (`NODE_ENV=production npm start`): the esbuild bundle runs under plain
 * node, with no TypeScript loader, and answers /svc/health.
 */
const serverRoot = path.resolve(import.meta.dirname, '..')
// Inside apps/server so the bundle resolves node_modules exactly as dist/server.js does.
const outdir = path.join(serverRoot, 'dist', `test-${process.pid}`)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-bundle-'))

async function health(port: number, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(`http://127.0.0.1:${port}/svc/health`)
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

describe('production build', () => {
  let child: ChildProcess | undefined

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(outdir, { recursive: true, force: true })
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('bundles the server and serves /svc/health from plain node', { timeout: 60_000 }, async () => {
    await promisify(execFile)(process.execPath, ['build.mjs', '--outdir', outdir], {
      cwd: serverRoot,
      timeout: 30_000,
    })
    const bundle = fs.readFileSync(path.join(outdir, 'server.js'), 'utf8')
    // The workspace packages are inlined (they export TypeScript, which plain node cannot load).
    expect(bundle).not.toMatch(/from ["']@numisma\//)

    const port = await freePort()
    const output: string[] = []
    child = spawn(process.execPath, [path.join(outdir, 'server.js')], {
      cwd: dataDir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        NUMISMA_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        NUMISMA_ADMIN_PASSWORD: 'bundle-test-password',
        PAY_PASSWORD_PEPPER: 'test-pepper-of-sixteen-chars-or-more',
        SMS_PROVIDER: 'sandbox',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    const exited = new Promise<never>((_, reject) =>
      child!.once('exit', (code) => {
        reject(new Error(`server exited with ${code}: ${output.join('')}`))
      }),
    )

    const started = Date.now()
    const res = await Promise.race([health(port, started + 20_000), exited])
    // Its later exit (the SIGTERM below) is expected.
    exited.catch(() => undefined)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ data: { status: 'ok' } })
  })
})
