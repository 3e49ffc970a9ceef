import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { AddressesTable, DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export type AddressRow = Selectable<AddressesTable>
export type NewAddressRow = Insertable<AddressesTable>
/** What an update may change: the address's own fields, not its owner or its default flag. */
export type AddressChanges = Omit<Updateable<AddressesTable>, 'id' | 'user_id' | 'is_default'>

/**
 * The SQL of shipping addresses. Every method that takes `tx` runs in the caller's write
 * transaction after `lockOwner`, so one user's address writes queue one behind the other.
 */
export class AddressRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Serialises one user's address writes on PostgreSQL (SQLite's BEGIN IMMEDIATE already does):
   * without it two first addresses, or two set-defaults, could each see no other default.
   * FOR NO KEY UPDATE leaves inserts that merely reference the user (bids, sessions) unblocked.
   */
  async lockOwner(tx: Tx, userId: number): Promise<void> {
    if (this.dialect !== 'postgres') return
    await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute()
  }

  /** The user's addresses, the default first, then newest first. */
  list(userId: number): Promise<AddressRow[]> {
    return this.db
      .selectFrom('addresses')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('is_default', 'desc')
      .orderBy('id', 'desc')
      .execute()
  }

  /** One of the user's addresses (another user's is not found). */
  find(userId: number, id: number, tx: Tx = this.db): Promise<AddressRow | undefined> {
    return tx
      .selectFrom('addresses')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  }

  async count(tx: Tx, userId: number): Promise<number> {
    const row = await tx
      .selectFrom('addresses')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  async insert(tx: Tx, row: NewAddressRow): Promise<number> {
    const { id } = await tx
      .insertInto('addresses')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async update(tx: Tx, userId: number, id: number, changes: AddressChanges): Promise<void> {
    await tx
      .updateTable('addresses')
      .set(changes)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .execute()
  }

  async remove(tx: Tx, userId: number, id: number): Promise<void> {
    await tx.deleteFrom('addresses').where('id', '=', id).where('user_id', '=', userId).execute()
  }

  /** Makes `id` the user's only default: the old default is cleared first (unique index). */
  async makeDefault(tx: Tx, userId: number, id: number, now: number): Promise<void> {
    await tx
      .updateTable('addresses')
      .set({ is_default: 0, updated_at: now })
      .where('user_id', '=', userId)
      .where('is_default', '=', 1)
      .where('id', '<>', id)
      .execute()
    await tx
      .updateTable('addresses')
      .set({ is_default: 1, updated_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .execute()
  }

  /** The user's newest address, if any. */
  async newest(tx: Tx, userId: number): Promise<number | undefined> {
    const row = await tx
      .selectFrom('addresses')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row?.id
  }
}
