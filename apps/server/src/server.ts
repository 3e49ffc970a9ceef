import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import path from 'node:path'
import { bookingExpiryFor, buildApp, mallOrderExpiryFor, overdueJobFor } from './app'
import { IdempotencyPurger, IdempotencyStore } from './platform/idempotency'
import { ClosingSweeper } from './modules/bidding/closing'
import { ReminderJob } from './modules/bidding/reminders'
import { CompletionJob } from './modules/delivery/completion'
import { StaffService } from './modules/staff/service'
import { systemClock } from './platform/clock'
import { assertProductionSecrets, type Config, loadConfig } from './platform/config'
import { type Database, openDatabase } from './platform/db'
import {
  LeasedJobs,
  leasePrefixFor,
  PostgresLeases,
  RedisLeases,
  singleInstanceLeases,
} from './platform/job-lease'
import { writeGeneratedAdminPassword } from './platform/generated-password'
import { createRedisEventBus } from './platform/redis-bus'
import { deploymentTag } from './platform/deployment-tag'
import { pushChannelFor } from './platform/event-bus'
import { seedDemo, startDemoRoller } from './seed/demo'
import { appOptionsFromConfig } from './server-options'

/** `npm start`: one process serving the roles ROLES names, all three by default (DESIGN §9, ADR 032). */
async function main(): Promise<void> {
  const config = loadConfig()
  assertProductionSecrets(config)
  const database = await openDatabase({
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    sqliteFile: path.join(config.dataDir, 'numisma.db'),
  })
  // REDIS_URL: pushes fan out across instances; without it, in-process (one instance). The bus
  // is made before the app (the push role subscribes to it as it registers) and the logger with
  // the app, so its errors (a failed publish, a malformed message) go to stderr until the app's
  // logger exists, a moment later, and to that logger from then on.
  let reportBusError = (error: unknown) => console.error('redis push bus error', error)
  // The deployment's own channel: another shop on the same Redis must not hear our lots.
  const deployment = deploymentTag({ url: config.databaseUrl, sqliteFile: database.sqliteFile })
  const bus = config.redisUrl
    ? await createRedisEventBus(
        config.redisUrl,
        (error) => reportBusError(error),
        pushChannelFor(deployment),
      )
    : undefined
  const app = await buildApp(
    appOptionsFromConfig(config, { database, clock: systemClock, bus, deployment }),
  )
  reportBusError = (error) => app.log.error({ err: error }, 'redis push bus error')
  // The main role owns the staff accounts, the demo and the interval jobs (ADR 032).
  const runsMain = config.roles.includes('main')
  if (runsMain) {
    const staff = await StaffService.forDatabase(database, systemClock).bootstrap(
      config.adminPassword,
    )
    if (staff.generated) {
      // Into a 0600 file, not the log (ADR 028): a log line is read by whoever reads the logs.
      const file = writeGeneratedAdminPassword(config.dataDir, staff.generated)
      app.log.warn(
        { file },
        'staff account "admin" created; its generated password is in this file (set NUMISMA_ADMIN_PASSWORD to choose it)',
      )
    }
  }
  const jobs = runsMain ? await startJobs(config, database, app) : undefined
  let stopRoller = () => {}
  if (runsMain && config.seed === 'demo') {
    await seedDemo(database, systemClock, app.log)
    // The roller keeps a demo alive; a production shop's auctions are set up by its operators.
    if (config.env !== 'production') stopRoller = startDemoRoller(database, systemClock, app.log)
  }

  // SIGTERM/SIGINT (ADR 032): /svc/ready turns 503 at once so the load balancer stops sending,
  // and every answer says `Connection: close`. For SHUTDOWN_DRAIN_MS the instance goes on serving
  // and closes no idle keep-alive connection itself: a proxy drops its idle pooled ones after its
  // own upstream keep-alive timeout, which must be shorter, so none is left for the instance to
  // close under a request the proxy is just sending (reset unanswered: a 502, even for a POST).
  // Then the listener closes (new connections are refused, which a proxy retries elsewhere; a
  // request on one accepted just before is still served) while requests in flight finish, for
  // at most SHUTDOWN_TIMEOUT_MS; sockets are closed with 1012 and a spread reconnect hint; the
  // jobs stop and give their leases up; then Redis and the database close and the process exits
  // 0. A second signal ends the drain window early.
  let shuttingDown = false
  let endDrain = () => {}
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      endDrain()
      return
    }
    shuttingDown = true
    app.readiness.beginShutdown()
    app.log.info(
      { signal, drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs },
      'shutting down',
    )
    if (config.shutdownDrainMs > 0) {
      await new Promise<void>((resolve) => {
        const window = setTimeout(resolve, config.shutdownDrainMs)
        endDrain = () => {
          clearTimeout(window)
          resolve()
        }
      })
    }
    const cutOff = setTimeout(() => {
      app.log.warn('requests still in flight at SHUTDOWN_TIMEOUT_MS: closing their connections')
      app.server.closeAllConnections()
    }, config.shutdownTimeoutMs)
    cutOff.unref()
    // Whatever hangs past the cut-off (a close that never answers) must not keep the process.
    const giveUp = setTimeout(() => {
      app.log.error('shutdown did not finish: exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs + 5000)
    giveUp.unref()
    // A keep-alive connection whose request finishes after the listener closed would stay open
    // until the cut-off: closed as soon as it is idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 50)
    idle.unref()
    stopRoller()
    await Promise.all([jobs?.stop(), app.close()])
    clearInterval(idle)
    clearTimeout(cutOff)
    await app.bus.close()
    await database.close()
    app.log.info('shut down')
    process.exit(0)
  }
  // A failed close must still end the process, and say why, rather than hang half shut.
  const onSignal = (signal: string) => () => {
    shutdown(signal).catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed')
      process.exit(1)
    })
  }
  process.on('SIGINT', onSignal('SIGINT'))
  process.on('SIGTERM', onSignal('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  // The bound port, not the configured one: PORT=0 (any free port, as tests use) binds another.
  const { port } = app.server.address() as AddressInfo
  app.log.info(
    `Numisma is up: http://localhost:${port} (${database.dialect}, ${config.env}, roles ${config.roles.join(',')})`,
  )
}

/**
 * The interval jobs (main role), each run by the instance holding its lease (ADR 032): Redis when
 * configured, else a PostgreSQL advisory lock; SQLite is one instance and runs them all.
 */
async function startJobs(
  config: Config,
  database: Database,
  app: FastifyInstance,
): Promise<LeasedJobs> {
  const backend = config.redisUrl
    ? new RedisLeases(
        config.redisUrl,
        leasePrefixFor({ url: config.databaseUrl, sqliteFile: database.sqliteFile }),
      )
    : database.dialect === 'postgres' && config.databaseUrl
      ? new PostgresLeases(config.databaseUrl)
      : singleInstanceLeases
  const leases = new LeasedJobs(backend, { log: app.log })
  leases.add(
    'closing',
    ClosingSweeper.forDatabase(database, systemClock, app.bus, { log: app.log }),
  )
  leases.add('reminders', ReminderJob.forDatabase(database, systemClock, app.bus, { log: app.log }))
  // A remittance order past its hold stays while a notice waiting for staff names it, and a mall
  // order booked for cash at the counter while the booking is open (app.ts wires both).
  leases.add('mall-order-expiry', mallOrderExpiryFor(database, systemClock, { log: app.log }))
  // Won lots unpaid 3 days after the close become overdue (DESIGN §4); a minute is precise enough.
  leases.add('overdue', overdueJobFor(database, systemClock, { log: app.log }))
  // Shipped goods are received by themselves 15 days after shipping (DESIGN §6).
  leases.add('completion', CompletionJob.forDatabase(database, systemClock, { log: app.log }))
  // Counter cash bookings whose day is over end by themselves, giving their slot places back.
  leases.add('booking-expiry', bookingExpiryFor(database, systemClock, { log: app.log }))
  leases.add(
    'idempotency-purge',
    new IdempotencyPurger(new IdempotencyStore(database.db), systemClock, (error) =>
      app.log.error({ err: error }, 'idempotency purge failed'),
    ),
  )
  await leases.start()
  return leases
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
