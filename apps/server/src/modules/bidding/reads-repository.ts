import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'

/** Bidding reads outside the bid transaction: bid history, the increment table, my views. Reads only. */
export class BiddingReads {
  constructor(private readonly db: Kysely<DB>) {}

  proxiesOf(userId: number) {
    return this.db
      .selectFrom('proxies')
      .innerJoin('lots', 'lots.id', 'proxies.lot_id')
      .selectAll('lots')
      .select([
        'proxies.max_amount',
        'proxies.active',
        'proxies.cancelled_at',
        'proxies.updated_at as proxy_updated_at',
      ])
      .where('proxies.user_id', '=', userId)
      .orderBy('proxies.updated_at', 'desc')
      .execute()
  }

  lotsBidOn(userId: number) {
    return this.db
      .selectFrom('lots')
      .selectAll('lots')
      .select((eb) =>
        eb
          .selectFrom('bids')
          .select((b) => b.fn.max<number>('bids.amount').as('m'))
          .whereRef('bids.lot_id', '=', 'lots.id')
          .where('bids.user_id', '=', userId)
          .as('my_highest'),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('bids')
            .select('bids.id')
            .whereRef('bids.lot_id', '=', 'lots.id')
            .where('bids.user_id', '=', userId),
        ),
      )
      .orderBy('lots.ends_at', 'desc')
      .execute()
  }

  async lotExists(id: number): Promise<boolean> {
    return (
      (await this.db.selectFrom('lots').select('id').where('id', '=', id).executeTakeFirst()) !==
      undefined
    )
  }

  /** One page of a lot's bid history, newest first, and how many rows there are in all. */
  async bidHistory(lotId: number, page: { offset: number; limit: number }) {
    const [rows, total] = await Promise.all([
      this.bidRows(lotId, page),
      this.db
        .selectFrom('bids')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('lot_id', '=', lotId)
        .executeTakeFirst(),
    ])
    return { rows, total: Number(total?.n ?? 0) }
  }

  private bidRows(lotId: number, page: { offset: number; limit: number }) {
    return this.db
      .selectFrom('bids')
      .innerJoin('users', 'users.id', 'bids.user_id')
      .select([
        'bids.id',
        'bids.user_id',
        'users.display',
        'bids.amount',
        'bids.auto',
        'bids.created_at',
      ])
      .where('bids.lot_id', '=', lotId)
      .orderBy('bids.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute()
  }

  priceSteps() {
    return this.db.selectFrom('price_steps').selectAll().orderBy('from_amount').execute()
  }

  /** Counters for the user centre: open lots bid on, watches, active proxies, unpaid orders. */
  async counts(userId: number) {
    const count = (n: { n: number | string } | undefined) => Number(n?.n ?? 0)
    const [bidding, watching, entrusted, pendingPayment] = await Promise.all([
      this.db
        .selectFrom('lots')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'open')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('bids')
              .select('bids.id')
              .whereRef('bids.lot_id', '=', 'lots.id')
              .where('bids.user_id', '=', userId),
          ),
        )
        .executeTakeFirst(),
      this.db
        .selectFrom('watches')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst(),
      this.db
        .selectFrom('proxies')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('active', '=', 1)
        .executeTakeFirst(),
      this.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('status', 'in', ['pending_payment', 'overdue'])
        .executeTakeFirst(),
    ])
    return {
      bidding: count(bidding),
      watching: count(watching),
      entrusted: count(entrusted),
      pendingPayment: count(pendingPayment),
    }
  }
}
