import type { FastifyBaseLogger } from 'fastify'
import { CatalogRepository } from '../modules/catalog/repository'
import { LedgerService } from '../modules/ledger/service'
import { PassportRepository } from '../modules/passport/repository'
import type { Clock } from '../platform/clock'
import type { Database } from '../platform/db'
import { SettingsRepository } from '../platform/settings-repository'
import { rollDemo, seedCatalogue } from './catalogue'

/** Demo collectors who can sign in with the sandbox SMS code (DESIGN §8). */
export const DEMO_USERS = [
  { mobile: '13800138000', display: '演示藏友' },
  { mobile: '13900139000', display: '袁大头收藏家' },
] as const

/**
 * Seeds demo data once per database (SEED=demo, the default): demo users and the catalogue. A
 * one-time marker (inserted first, atomically) means a restart or a second instance never
 * duplicates rows.
 */
export async function seedDemo(database: Database, clock: Clock, log: FastifyBaseLogger) {
  const settings = new SettingsRepository(database.db)
  const catalog = new CatalogRepository(database.db)
  if (!(await catalog.isEmpty())) return
  // Several instances may start together on an empty database: the marker decides who seeds.
  const marker = `seeded:${clock.now()}`
  if ((await settings.getOrInsert('seed.demo', marker)) !== marker) return
  const passport = new PassportRepository(database.db)
  const ledger = new LedgerService(database, clock)
  for (const user of DEMO_USERS) {
    const row = await passport.findOrCreateUser(user.mobile, user.display, clock.now())
    if (row.created) await ledger.creditDeposit(row.id, 500_000, 'demo deposit')
  }
  await seedCatalogue(catalog, clock.now())
  log.info({ users: DEMO_USERS.length }, 'demo data seeded')
}

/** While the demo runs, a new quick-sale special opens whenever the closing lots run low. */
export function startDemoRoller(database: Database, clock: Clock, log: FastifyBaseLogger) {
  const repo = new CatalogRepository(database.db)
  const tick = () => {
    rollDemo(repo, clock.now())
      .then((rolled) => rolled && log.info('demo: a new quick-sale special opened'))
      .catch((error: unknown) => log.error({ err: error }, 'demo roller failed'))
  }
  tick()
  const timer = setInterval(tick, 60_000)
  timer.unref()
  return () => clearInterval(timer)
}
