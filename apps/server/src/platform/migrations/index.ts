import {
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
} from 'kysely'
import type { Dialect } from '../db'
import { foundation } from './0001-foundation'
import { catalog } from './0002-catalog'
import { bidding } from './0003-bidding'
import { idempotencyPurge } from './0004-idempotency-purge'
import { watchReminders } from './0005-watch-reminders'
import { depositNaming } from './0006-deposit-naming'
import { englishNames } from './0007-english-names'
import { mall } from './0008-mall'
import { money } from './0009-money'
import { noticesAndMoneyFixes } from './0010-notices-and-money-fixes'
import { addresses } from './0011-addresses'
import { delivery } from './0012-delivery'
import { wechat } from './0013-wechat'
import { chat } from './0014-chat'
import { staffRolesAudit } from './0015-staff-roles-audit'
import { cataloguePhotos } from './0016-catalogue-photos'
import { salesRelist } from './0017-sales-relist'
import { moneyRefunds } from './0018-money-refunds'
import { postgresBidFunction } from './0019-postgres-bid-function'
import { postgresBidFunctionLoops } from './0020-postgres-bid-function-loops'
import { postgresPlaceBidsBusy } from './0021-postgres-place-bids-busy'

/**
 * Migrations are code, written once for both dialects: the context hides the two places where
 * SQLite and PostgreSQL differ for us (auto-increment keys and 64-bit integers).
 */
export interface MigrationContext {
  dialect: Dialect
  /** Adds an auto-increment integer primary key `id`. */
  id: <T extends string>(table: CreateTableBuilder<T>) => CreateTableBuilder<T, 'id'>
  /** Column type for epoch-millisecond times and fen amounts (64-bit). */
  time: 'bigint' | 'integer'
}

export function migrationContext(dialect: Dialect): MigrationContext {
  return {
    dialect,
    id: (table) =>
      dialect === 'postgres'
        ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    time: dialect === 'postgres' ? 'bigint' : 'integer',
  }
}

const MIGRATIONS: Record<string, (ctx: MigrationContext) => Migration> = {
  '0001-foundation': foundation,
  '0002-catalog': catalog,
  '0003-bidding': bidding,
  '0004-idempotency-purge': idempotencyPurge,
  '0005-watch-reminders': watchReminders,
  '0006-deposit-naming': depositNaming,
  '0007-english-names': englishNames,
  '0008-mall': mall,
  '0009-money': money,
  '0010-notices-and-money-fixes': noticesAndMoneyFixes,
  '0011-addresses': addresses,
  '0012-delivery': delivery,
  '0013-wechat': wechat,
  '0014-chat': chat,
  '0015-staff-roles-audit': staffRolesAudit,
  '0016-catalogue-photos': cataloguePhotos,
  '0017-sales-relist': salesRelist,
  '0018-money-refunds': moneyRefunds,
  '0019-postgres-bid-function': postgresBidFunction,
  '0020-postgres-bid-function-loops': postgresBidFunctionLoops,
  '0021-postgres-place-bids-busy': postgresPlaceBidsBusy,
}

class CodeMigrationProvider implements MigrationProvider {
  constructor(private readonly ctx: MigrationContext) {}

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(
      Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, m(this.ctx)])),
    )
  }
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new CodeMigrationProvider(migrationContext(dialect)),
  })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed`, { cause: error })
  }
}
