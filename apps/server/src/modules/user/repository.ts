import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

export interface UserProfileRow {
  id: number
  mobile: string
  display: string
  avatar: string | null
  created_at: number
}

/** The user centre's SQL: the profile a signed-in user sees of themselves. */
export class UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findProfile(userId: number): Promise<UserProfileRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'mobile', 'display', 'avatar', 'created_at'])
      .where('id', '=', userId)
      .executeTakeFirst()
  }
}
