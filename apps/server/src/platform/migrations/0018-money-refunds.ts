import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/** Issue 12 · reserved for the console's money area (refunds); filled by that area's work. */
export function moneyRefunds(_ctx: MigrationContext) {
  return {
    async up(_db: Kysely<unknown>): Promise<void> {},
  }
}
