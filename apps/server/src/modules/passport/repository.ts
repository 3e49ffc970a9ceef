import type { Kysely } from 'kysely'
import type { SessionCredential } from '../../platform/request-signing'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export interface UserRow {
  id: number
  mobile: string
  display: string
  avatar: string | null
  created_at: number
}

export class PassportRepository {
  constructor(private readonly db: Kysely<DB>) {}

  latestCode(mobile: string) {
    return this.db
      .selectFrom('sms_codes')
      .selectAll()
      .where('mobile', '=', mobile)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
  }

  async insertCode(
    mobile: string,
    codeHash: string,
    now: number,
    expiresAt: number,
  ): Promise<number> {
    const row = await this.db
      .insertInto('sms_codes')
      .values({ mobile, code_hash: codeHash, created_at: now, expires_at: expiresAt, attempts: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  /** A code that never went out: it must not hold back the next request (the 60 s resend wait). */
  async deleteCode(id: number): Promise<void> {
    await this.db.deleteFrom('sms_codes').where('id', '=', id).execute()
  }

  async countAttempt(id: number): Promise<void> {
    await this.db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute()
  }

  /** Marks a code used; false when a concurrent login already used it. */
  async consumeCode(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sms_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst()
    return result.numUpdatedRows === 1n
  }

  /**
   * Finds the user of a mobile number, creating the account on first sign-in; `db` is a caller's
   * transaction when the sign-in writes more (modules/wechat's binding).
   */
  async findOrCreateUser(
    mobile: string,
    display: string,
    now: number,
    db: Tx = this.db,
  ): Promise<UserRow & { created: boolean }> {
    const inserted = await db
      .insertInto('users')
      .values({ mobile, display, avatar: null, created_at: now })
      .onConflict((oc) => oc.column('mobile').doNothing())
      .returning('id')
      .executeTakeFirst()
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('mobile', '=', mobile)
      .executeTakeFirstOrThrow()
    return { ...user, created: inserted !== undefined }
  }

  async userIdOfMobile(mobile: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', mobile)
      .executeTakeFirst()
    return row?.id
  }

  findUser(id: number, db: Tx = this.db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async insertSession(
    session: {
      id: string
      userId: number
      key: string
      sidHash: string
      deviceId: string
      now: number
      expiresAt: number
    },
    db: Tx = this.db,
  ): Promise<void> {
    await db
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        key: session.key,
        sid_hash: session.sidHash,
        device_id: session.deviceId,
        created_at: session.now,
        expires_at: session.expiresAt,
        revoked_at: null,
      })
      .execute()
  }

  findSession(id: string): Promise<SessionCredential | undefined> {
    return this.sessionWhere('id', id)
  }

  findSessionBySidHash(sidHash: string): Promise<SessionCredential | undefined> {
    return this.sessionWhere('sid_hash', sidHash)
  }

  private async sessionWhere(
    column: 'id' | 'sid_hash',
    value: string,
  ): Promise<SessionCredential | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'key', 'sid_hash', 'expires_at', 'revoked_at'])
      .where(column, '=', value)
      .executeTakeFirst()
    return (
      row && {
        id: row.id,
        userId: row.user_id,
        key: row.key,
        sidHash: row.sid_hash,
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
      }
    )
  }

  async revokeSession(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute()
  }
}
