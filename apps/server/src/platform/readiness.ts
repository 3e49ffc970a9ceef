import type { FastifyPluginAsync } from 'fastify'
import { sql } from 'kysely'
import type { Database } from './db'
import { sendError } from './error-handler'

/** A dependency /svc/ready asks: the database, Redis when configured. */
export interface ReadinessProbe {
  name: 'database' | 'redis'
  /** Resolves when the dependency answers; rejects (or outlasts the timeout) when it does not. */
  probe(): Promise<unknown>
}

/** How long /svc/ready waits for a dependency: a load balancer's own check times out soon after. */
export const READY_PROBE_TIMEOUT_MS = 1000

export type ReadyState = { ready: true } | { ready: false; reason: string }

/**
 * Whether this instance should be sent traffic (DESIGN §9, ADR 032): not once shutdown has begun
 * (a load balancer stops sending before the listener closes), nor while a dependency every request
 * needs does not answer. /svc/health stays 200 meanwhile: the process is alive, restarting it
 * would not bring the database back.
 */
export class Readiness {
  private shuttingDown = false

  constructor(
    private readonly probes: readonly ReadinessProbe[],
    private readonly timeoutMs = READY_PROBE_TIMEOUT_MS,
  ) {}

  /** From now on /svc/ready answers 503 (server.ts calls it first thing on SIGTERM). */
  beginShutdown(): void {
    this.shuttingDown = true
  }

  get draining(): boolean {
    return this.shuttingDown
  }

  async state(): Promise<ReadyState> {
    if (this.shuttingDown) return { ready: false, reason: 'shutting_down' }
    const failed = await Promise.all(
      this.probes.map(async (p) => ((await answers(p, this.timeoutMs)) ? undefined : p.name)),
    )
    const down = failed.filter((name) => name !== undefined)
    return down.length === 0 ? { ready: true } : { ready: false, reason: down.join(',') }
  }
}

async function answers(probe: ReadinessProbe, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    return await Promise.race([probe.probe().then(() => true), timeout])
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** `select 1` over the app's own pool: the path every request takes to the data. */
export function databaseProbe(database: Database): ReadinessProbe {
  return { name: 'database', probe: () => sql`select 1`.execute(database.db) }
}

/** GET /svc/ready: 200 `{data: {status: 'ready'}}`, else 503 `{code: 'SERVICE_BUSY', message, details: {reason}}`. */
export const readyRoutes: FastifyPluginAsync<{ readiness: Readiness }> = async (
  app,
  { readiness },
) => {
  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary:
          'Readiness: 200 while the database (and Redis, when configured) answer and no shutdown has begun, else 503',
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store')
      const state = await readiness.state()
      if (state.ready) return { data: { status: 'ready' as const } }
      return sendError(request, reply, 503, 'SERVICE_BUSY', { reason: state.reason })
    },
  )
}
