import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { bookingExpiryFor, buildApp, mallOrderExpiryFor, overdueJobFor } from './app'
import { IdempotencyPurger, IdempotencyStore } from './platform/idempotency'
import { ClosingSweeper } from './modules/bidding/closing'
import { ReminderJob } from './modules/bidding/reminders'
import { CompletionJob } from './modules/delivery/completion'
import { StaffService } from './modules/staff/service'
import { systemClock } from './platform/clock'
import { assertProductionSecrets, loadConfig } from './platform/config'
import { openDatabase } from './platform/db'
import { writeGeneratedAdminPassword } from './platform/generated-password'
import { createRedisEventBus } from './platform/redis-bus'
import { seedDemo, startDemoRoller } from './seed/demo'
import { appOptionsFromConfig } from './server-options'

/** `npm start`: one process serving every role (DESIGN §9). */
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
  const bus = config.redisUrl
    ? await createRedisEventBus(config.redisUrl, (error) => reportBusError(error))
    : undefined
  const app = await buildApp(appOptionsFromConfig(config, { database, clock: systemClock, bus }))
  reportBusError = (error) => app.log.error({ err: error }, 'redis push bus error')
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
  const sweeper = ClosingSweeper.forDatabase(database, systemClock, app.bus, { log: app.log })
  sweeper.start(1000)
  const reminders = ReminderJob.forDatabase(database, systemClock, app.bus, { log: app.log })
  reminders.start(1000)
  // A remittance order past its hold stays while a notice waiting for staff names it, and a mall
  // order booked for cash at the counter while the booking is open (app.ts wires both).
  const expiry = mallOrderExpiryFor(database, systemClock, { log: app.log })
  expiry.start()
  // Won lots unpaid 3 days after the close become overdue (DESIGN §4); a minute is precise enough.
  const overdue = overdueJobFor(database, systemClock, { log: app.log })
  overdue.start()
  // Shipped goods are received by themselves 15 days after shipping (DESIGN §6).
  const completion = CompletionJob.forDatabase(database, systemClock, { log: app.log })
  completion.start()
  // Counter cash bookings whose day is over end by themselves, giving their slot places back.
  const bookingExpiry = bookingExpiryFor(database, systemClock, { log: app.log })
  bookingExpiry.start()
  const purger = new IdempotencyPurger(new IdempotencyStore(database.db), systemClock, (error) =>
    app.log.error({ err: error }, 'idempotency purge failed'),
  )
  purger.start()
  let stopRoller = () => {}
  if (config.seed === 'demo') {
    await seedDemo(database, systemClock, app.log)
    // The roller keeps a demo alive; a production shop's auctions are set up by its operators.
    if (config.env !== 'production') stopRoller = startDemoRoller(database, systemClock, app.log)
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down')
    stopRoller()
    await sweeper.stop()
    await reminders.stop()
    await expiry.stop()
    await overdue.stop()
    await completion.stop()
    await bookingExpiry.stop()
    await purger.stop()
    await app.close()
    await app.bus.close()
    await database.close()
    process.exit(0)
  }
  // A failed close must still end the process, and say why, rather than hang half shut.
  const onSignal = (signal: string) => () => {
    shutdown(signal).catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed')
      process.exit(1)
    })
  }
  process.once('SIGINT', onSignal('SIGINT'))
  process.once('SIGTERM', onSignal('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  // The bound port, not the configured one: PORT=0 (any free port, as tests use) binds another.
  const { port } = app.server.address() as AddressInfo
  app.log.info(`Numisma is up: http://localhost:${port} (${database.dialect}, ${config.env})`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
