import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { PUSH_CHANNEL, pushChannelFor } from '../src/platform/event-bus'
import { deploymentTag } from '../src/platform/deployment-tag'
import { REDIS_TEST_URL, redisAvailable } from './helpers/redis'
import { freePort } from './helpers/ports'

const serverRoot = path.resolve(import.meta.dirname, '..')
const redis = await redisAvailable()

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The composition root (`npm start`, src/server.ts) with REDIS_URL: what goes wrong on the Redis
 * bus reaches the server's log. It used to be built without a logger, so a malformed message from
 * another instance, or a failed publish, vanished in production.
 */
describe.runIf(redis)('server with REDIS_URL', () => {
  let child: ChildProcess | undefined
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'numisma-logs-'))
  const output: string[] = []

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('logs a malformed message on the push channel', { timeout: 40_000 }, async () => {
    const port = await freePort()
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: serverRoot,
      env: {
        PATH: process.env.PATH,
        NUMISMA_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        NUMISMA_ADMIN_PASSWORD: 'logs-test-password',
        PAY_PASSWORD_PEPPER: 'test-pepper-of-sixteen-chars-or-more',
        SMS_PROVIDER: 'sandbox',
        REDIS_URL: REDIS_TEST_URL,
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    await waitFor(
      () =>
        fetch(`http://127.0.0.1:${port}/svc/health`).then(
          (res) => res.ok,
          () => child?.exitCode !== null && Promise.reject(new Error(output.join(''))),
        ),
      'the server to answer /svc/health',
      30_000,
    )

    // The server's channel is its deployment's (its database's), as server.ts names it.
    const pushChannel = pushChannelFor(
      deploymentTag({ sqliteFile: path.join(dataDir, 'numisma.db') }),
    )
    const publisher = new Redis(REDIS_TEST_URL)
    try {
      // Not a push event: another instance of an older or broken build. On the shared channel of
      // no deployment, and on another shop's, it is not heard at all; on ours it is logged.
      const malformed = JSON.stringify({ type: 'lot', lotId: 'not-a-number' })
      await publisher.publish(PUSH_CHANNEL, malformed)
      await publisher.publish(pushChannelFor('another-shop'), malformed)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(output.join('')).not.toContain('redis push bus error')
      await publisher.publish(pushChannel, malformed)
    } finally {
      publisher.disconnect()
    }
    await waitFor(() => output.join('').includes('redis push bus error'), 'the log line', 5_000)
    const lines = output
      .join('')
      .split('\n')
      .filter((l) => l.includes('redis push bus error'))
    expect(lines).toHaveLength(1)
    const line = lines[0]
    // Through the app's logger: a JSON line at error level, with the error attached.
    expect(JSON.parse(line!)).toMatchObject({ level: 50, msg: 'redis push bus error' })
  })
})
