import { type Kysely, type Selectable, sql } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { CouponsTable, DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export type StaffCouponRow = Selectable<CouponsTable> & { locked: number; used: number }

/** The SQL of staff's coupon list and of stopping a coupon's issue. */
export class StaffCouponRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Every coupon, newest first, with how many received ones orders hold and have used. */
  list(): Promise<StaffCouponRow[]> {
    const countOf = (status: 'locked' | 'used') =>
      sql<number>`cast((select count(*) from user_coupons uc where uc.coupon_id = ${sql.ref(
        'coupons.id',
      )} and uc.status = ${status}) as integer)`
    return this.db
      .selectFrom('coupons')
      .selectAll()
      .select([countOf('locked').as('locked'), countOf('used').as('used')])
      .orderBy('id', 'desc')
      .execute()
  }

  /** The coupon, locked as a receiver locks it (coupons' `lockCoupon`), so the two take turns. */
  lock(tx: Tx, id: number): Promise<Selectable<CouponsTable> | undefined> {
    let query = tx.selectFrom('coupons').selectAll().where('id', '=', id)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /** No more to receive: the total becomes what has been received. */
  async stopIssue(tx: Tx, id: number): Promise<void> {
    await tx
      .updateTable('coupons')
      .set((eb) => ({ total: eb.ref('issued') }))
      .where('id', '=', id)
      .execute()
  }
}
