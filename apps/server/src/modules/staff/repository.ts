import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

export class StaffRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findByUsername(username: string) {
    return this.db
      .selectFrom('staff_users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst()
  }

  /** Creates the account unless it exists; true when this call created it. */
  async createIfMissing(username: string, passwordHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('staff_users')
      .values({ username, password_hash: passwordHash, created_at: now })
      .onConflict((oc) => oc.column('username').doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1
  }

  async insertSession(sidHash: string, staffId: number, now: number, expiresAt: number) {
    await this.db
      .insertInto('staff_sessions')
      .values({ sid_hash: sidHash, staff_id: staffId, created_at: now, expires_at: expiresAt })
      .execute()
  }

  findSession(sidHash: string, now: number) {
    return this.db
      .selectFrom('staff_sessions')
      .innerJoin('staff_users', 'staff_users.id', 'staff_sessions.staff_id')
      .select(['staff_users.id as staffId', 'staff_users.username'])
      .where('staff_sessions.sid_hash', '=', sidHash)
      .where('staff_sessions.expires_at', '>', now)
      .executeTakeFirst()
  }

  async deleteSession(sidHash: string): Promise<void> {
    await this.db.deleteFrom('staff_sessions').where('sid_hash', '=', sidHash).execute()
  }
}
