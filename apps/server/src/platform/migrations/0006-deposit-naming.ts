import { type Kysely, type Migration, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * One name per thing (DESIGN §4): the ledger account that holds a user's 保证金 is the *deposit*;
 * the *quota* is the limit derived from it and is never stored. Accounts opened under the old
 * kind name 'quota' are renamed. The unique (user_id, kind) cannot collide: no 'deposit' account
 * existed before this migration. Code before it opens 'quota' accounts and code after it reads
 * only 'deposit' ones, so the instances of a multi-instance shop are replaced together, not one by
 * one, for this release (ADR 008's deploy note).
 */
export function depositNaming(_ctx: MigrationContext): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`update ledger_accounts set kind = 'deposit' where kind = 'quota'`.execute(db)
    },
    async down(db: Kysely<unknown>) {
      await sql`update ledger_accounts set kind = 'quota' where kind = 'deposit'`.execute(db)
    },
  }
}
