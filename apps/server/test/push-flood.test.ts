import { spawn } from 'node:child_process'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatalogRepository } from '../src/modules/catalog/repository'
import { DEFAULT_PUSH_LIMITS } from '../src/modules/push/limits'
import { createTestApp, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { listen } from './helpers/push-client'

const MINUTE = 60_000
const SOCKETS = 4
const MESSAGES = 150
const IDS = 200
const HEALTH_BUDGET_MS = 50
const FLOODER = path.join(import.meta.dirname, 'helpers', 'push-flooder.mjs')

/** One running special with `count` lots (test data builder); returns their ids. */
async function createLots(t: TestApp, count: number): Promise<number[]> {
  const repo = new CatalogRepository(t.database.db)
  const now = t.clock.now()
  const specialId = await repo.insertSpecial({
    title: '洪水专场',
    subtitle: '',
    description: '',
    cover: '',
    starts_at: now - MINUTE,
    ends_at: now + 60 * MINUTE,
    stagger_seconds: 0,
    soft_close_window_seconds: 300,
    soft_close_extend_seconds: 300,
    created_at: now,
  })
  await repo.insertLots(
    Array.from({ length: count }, (_, i) => ({
      special_id: specialId,
      lot_no: i + 1,
      category_id: null,
      title: `拍品 ${i + 1}`,
      subtitle: '',
      description: '',
      images: '[]',
      grade_code: 24,
      grading_service: null,
      cert_no: null,
      year: '1914',
      denomination: '壹圆',
      material: '银',
      start_price: 10_000,
      reserve_price: null,
      starts_at: now - MINUTE,
      ends_at: now + 60 * MINUTE,
      export_banned: 0,
      status: 'open',
      price: null,
      bid_count: 0,
      leader_id: null,
      created_at: now,
    })),
  )
  return (await repo.lotsOfSpecial(specialId)).map((lot) => lot.id)
}

interface Seen {
  lots: number
  rateLimited: number
  errors: number
  closeCode: number | null
}

/** Runs helpers/push-flooder.mjs in its own process (the attacker is not the server's process). */
function startFlooder(plan: {
  url: string
  sockets: number
  messages: number
  lotSets: number[][]
}) {
  const child = spawn(process.execPath, [FLOODER, JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout })
  let markFlooding: () => void = () => undefined
  const flooding = new Promise<void>((resolve) => (markFlooding = resolve))
  const result = new Promise<Seen[]>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'flooding') markFlooding()
      else resolve(JSON.parse(line) as Seen[])
    })
    child.on('exit', (code) => reject(new Error(`flooder exited with ${code} before reporting`)))
  })
  // A flooder that dies early fails `result`; `flooding` must not wait for it forever.
  result.catch(() => markFlooding())
  return { child, flooding, result }
}

async function timedHealth(base: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${base}/svc/health`)
  await response.text()
  expect(response.status).toBe(200)
  return performance.now() - started
}

/**
 * Issue 7, defect 3: four anonymous sockets, each sending 150 subscribes of 200 lot ids, froze the
 * server (120,000 one-by-one lookups; /svc/health from 2 ms to 5.8 s). Every subscribe names 200
 * lots the socket does not follow yet (two sets in turn), the worst case for the snapshot.
 */
describe.each(await testDatabases())('push flood ($name)', (kind) => {
  let t: TestApp
  let base: string
  let sets: [number[], number[]]

  beforeAll(async () => {
    t = await createTestApp(kind)
    const ids = await createLots(t, 2 * IDS)
    sets = [ids.slice(0, IDS), ids.slice(IDS)]
    base = await listen(t.app)
  })
  afterAll(() => t.close())

  // Retried: on a busy machine one health call can miss 50 ms with no flood at all (the scheduler,
  // not the server). Before the fix every attempt took seconds.
  it(
    `keeps /svc/health under ${HEALTH_BUDGET_MS} ms, and closes the flooding sockets`,
    { retry: 2 },
    async () => {
      await timedHealth(base) // warm: the first request pays for lazy set-up
      const flooder = startFlooder({
        url: `${base.replace(/^http/, 'ws')}/svc/push/ws`,
        sockets: SOCKETS,
        messages: MESSAGES,
        lotSets: sets,
      })
      try {
        await flooder.flooding
        // Health is asked again and again until the flood is over (every socket closed), at
        // least eight times; the flooder gives up on the server after 10 s.
        let over = false
        const result = flooder.result.finally(() => (over = true))
        result.catch(() => undefined) // awaited below; not an unhandled rejection meanwhile
        const timings: number[] = []
        while (timings.length < 8 || !over) {
          timings.push(await timedHealth(base))
          await new Promise((r) => setTimeout(r, 10))
        }
        const seen = await result
        expect(
          Math.max(...timings),
          `health timings ${timings.map(Math.round).join(', ')} ms`,
        ).toBeLessThan(HEALTH_BUDGET_MS)
        expect(seen.map((s) => s.closeCode)).toEqual(Array(SOCKETS).fill(1008))
        for (const socket of seen) {
          expect(socket.rateLimited).toBe(DEFAULT_PUSH_LIMITS.refusalsBeforeClose - 1)
          // At most one burst of subscribes was answered, each with at most its 200 lots.
          expect(socket.lots).toBeLessThanOrEqual(DEFAULT_PUSH_LIMITS.messageBurst * IDS)
          expect(socket.errors).toBe(0)
        }
      } finally {
        flooder.child.kill()
      }
    },
  )
})
