import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationContext } from '../src/platform/migrations'
import { wechat } from '../src/platform/migrations/0013-wechat'
import type { Database } from '../src/platform/db'
import { testDatabases } from './helpers/databases'

/** Migration 0013 can be undone, as its neighbours can: down drops what up made, and up runs again. */
const databases = await testDatabases()
const TABLES = ['platform_tokens', 'wechat_bind_tokens', 'wechat_links', 'wechat_oauth_codes']

describe.each(databases)('migration 0013 on $name', (kind) => {
  let database: Database
  beforeAll(async () => {
    database = await kind.open()
  })
  afterAll(() => database.close())

  const wechatTables = async (db: Kysely<unknown>) =>
    (await db.introspection.getTables())
      .map((table) => table.name)
      .filter((name) => TABLES.includes(name))
      .sort()

  it('goes down and up again', async () => {
    const db = database.db as unknown as Kysely<unknown>
    const migration = wechat(migrationContext(database.dialect))
    expect(await wechatTables(db)).toEqual(TABLES)
    await migration.down(db)
    expect(await wechatTables(db)).toEqual([])
    await migration.up(db)
    expect(await wechatTables(db)).toEqual(TABLES)
  })
})
