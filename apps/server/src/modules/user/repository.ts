import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

export interface UserProfileRow {
  id: number
  mobile: string
  display: string
  avatar: string | null
  created_at: number
}

/** The user centre's SQL: the profile a signed-in user sees of themselves, and its counters. */
export class UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findProfile(userId: number): Promise<UserProfileRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'mobile', 'display', 'avatar', 'created_at'])
      .where('id', '=', userId)
      .executeTakeFirst()
  }

  /** How many of the user's orders are in each of the statuses asked about (absent: none). */
  async orderCountsByStatus(
    userId: number,
    statuses: readonly string[],
  ): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('orders')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('user_id', '=', userId)
      .where('status', 'in', [...statuses])
      .groupBy('status')
      .execute()
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
  }
}
