import type { Kysely } from 'kysely'
import type { DB } from './schema'

export class SettingsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst()
    return row?.value
  }

  /** Stores `value` unless the key exists, then returns what is stored: safe with many instances. */
  async getOrInsert(key: string, value: string): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute()
    const stored = await this.get(key)
    if (stored === undefined) throw new Error(`setting ${key} vanished`)
    return stored
  }
}
