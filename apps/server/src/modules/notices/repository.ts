import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export interface NoticeRow {
  id: number
  kind: string
  /** JSON object. */
  params: string
  link: string | null
  createdAt: number
  readAt: number | null
}

/** The SQL of a user's notices. Methods that take `tx` run in the caller's write transaction. */
export class NoticesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(
    tx: Tx,
    row: { userId: number; kind: string; params: string; link: string | null; now: number },
  ): Promise<number> {
    const inserted = await tx
      .insertInto('notices')
      .values({
        user_id: row.userId,
        kind: row.kind,
        params: row.params,
        link: row.link,
        created_at: row.now,
        read_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return inserted.id
  }

  /**
   * Deletes the user's notices older than their newest `keep`. One statement over the
   * (user_id, id) index: the subquery walks `keep` index entries, and finds nothing (so deletes
   * nothing) while the user has fewer.
   */
  async keepNewest(tx: Tx, userId: number, keep: number): Promise<void> {
    await tx
      .deleteFrom('notices')
      .where('user_id', '=', userId)
      .where('id', '<', (eb) =>
        eb
          .selectFrom('notices')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('id', 'desc')
          .limit(1)
          .offset(keep - 1),
      )
      .execute()
  }

  /** One page of the user's notices, newest first, and how many they have. */
  async page(
    userId: number,
    offset: number,
    limit: number,
  ): Promise<{ rows: NoticeRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('notices')
        .select(['id', 'kind', 'params', 'link', 'created_at as createdAt', 'read_at as readAt'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ])
    return { rows, total: Number(count.n) }
  }

  /** Marks the user's unread notices read: those of `ids` that are theirs, or all of them. */
  async markRead(tx: Tx, userId: number, ids: readonly number[] | null, now: number) {
    let update = tx
      .updateTable('notices')
      .set({ read_at: now })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
    if (ids !== null) update = update.where('id', 'in', [...ids])
    await update.execute()
  }

  async unreadCount(tx: Tx | null, userId: number): Promise<number> {
    const row = await (tx ?? this.db)
      .selectFrom('notices')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }
}
