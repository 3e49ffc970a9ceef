import type { FastifyBaseLogger } from 'fastify'
import { PassportRepository } from '../modules/passport/repository'
import type { Clock } from '../platform/clock'
import type { Database } from '../platform/db'
import { SettingsRepository } from '../platform/settings-repository'

/** Demo collectors who can sign in with the sandbox SMS code (DESIGN §8). */
export const DEMO_USERS = [
  { mobile: '13800138000', display: '演示藏友' },
  { mobile: '13900139000', display: '袁大头收藏家' },
] as const

/**
 * Seeds demo data once per database (SEED=demo, the default). Later issues add the catalogue;
 * each part is guarded by the same one-time marker so a restart never duplicates rows.
 */
export async function seedDemo(database: Database, clock: Clock, log: FastifyBaseLogger) {
  const settings = new SettingsRepository(database.db)
  const marker = `seeded:${clock.now()}`
  if ((await settings.getOrInsert('seed.demo', marker)) !== marker) return
  const passport = new PassportRepository(database.db)
  for (const user of DEMO_USERS) {
    await passport.findOrCreateUser(user.mobile, user.display, clock.now())
  }
  log.info({ users: DEMO_USERS.length }, 'demo data seeded')
}
