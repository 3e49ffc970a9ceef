import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** What a lot update needs: the lot's live state and its leader's display name. */
export interface PushLotRow {
  id: number
  status: string
  starts_at: number
  ends_at: number
  price: number | null
  bid_count: number
  leader_id: number | null
  reserve_price: number | null
  leader_display: string | null
}

export interface PushSessionRow {
  /** The session's id (`s_…`), which a `session_revoked` event names. */
  id: string
  user_id: number
  expires_at: number
  revoked_at: number | null
}

/** The push role's reads: lot snapshots and the session behind a socket's cookie. */
export class PushRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every lot of one subscribe in one query (never one query per lot). */
  async lotsByIds(ids: readonly number[]): Promise<PushLotRow[]> {
    if (ids.length === 0) return []
    return this.db
      .selectFrom('lots')
      .leftJoin('users', 'users.id', 'lots.leader_id')
      .select([
        'lots.id',
        'lots.status',
        'lots.starts_at',
        'lots.ends_at',
        'lots.price',
        'lots.bid_count',
        'lots.leader_id',
        'lots.reserve_price',
        'users.display as leader_display',
      ])
      .where('lots.id', 'in', ids)
      .execute()
  }

  async sessionBySidHash(sidHash: string): Promise<PushSessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'expires_at', 'revoked_at'])
      .where('sid_hash', '=', sidHash)
      .executeTakeFirst()
  }
}
