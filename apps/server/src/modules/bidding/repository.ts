import { type Kysely, sql } from 'kysely'
import type { BidResult } from '@numisma/contracts/bidding'
import type { ErrorCode } from '@numisma/contracts/errors'
import type { LotState, PriceChange, ProxyMax } from '@numisma/domain/bid-engine'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

/** What a user has at stake (DESIGN §4 "Deposit and quota"), as the quota check needs it. */
export interface Exposure {
  deposit: number
  leading: { id: number; price: number }[]
  proxies: { lot_id: number; max_amount: number }[]
  unpaidOrders: number
  /** The user's overdue won lots: their hammers (what forfeits take) and totals (DESIGN §4). */
  overdue: { hammer: number; total: number }
}

export interface LockedLot {
  id: number
  /** For the notices a bid writes (outbid). */
  title: string
  status: string
  startPrice: number
  reservePrice: number | null
  price: number | null
  leaderId: number | null
  leaderSince: number
  startsAt: number
  endsAt: number
  bidCount: number
  softCloseWindowSeconds: number
  softCloseExtendSeconds: number
}

/** What a bid placed in one statement needs to push after commit (see numisma_place_bid). */
export interface PlacedPush {
  status: string
  startsAt: number
  reservePrice: number | null
  leaderId: number | null
  endsAt: number
  outbid: number | null
  /** The leader's display name, unmasked; null without a leader. */
  leader: string | null
  /** The time the bid was judged at (the caller's clock plus any wait for the lot's lock). */
  now: number
}

/** The outcome of `placeBidInOneStatement`: a refusal, a replay, or a committed bid. */
export type OneStatementBid =
  | { error: ErrorCode; details: Record<string, unknown> | null }
  | { replay: BidResult }
  | { response: BidResult; push: PlacedPush }
  /** Another transaction holds the lot: nothing was done. */
  | { busy: true }

/** One bid of a batch for `placeBidsInOneStatement`. */
export interface OneStatementBidInput {
  lotId: number
  userId: number
  amount: number
  proxy: boolean
  key: string | null
  hash: string
}

/**
 * The SQL of placing bids and closing lots. Methods that take `tx` run in the caller's write
 * transaction; the others read what is committed.
 */
export class BiddingRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * On PostgreSQL a bid is one autocommit statement, `numisma_place_bid` (migration 0019, ADR 030):
   * the lot's lock is held for that statement only, not for a transaction's round trips. SQLite
   * (in-process, no round trips) runs the TypeScript transaction.
   */
  get bidsInOneStatement(): boolean {
    return this.dialect === 'postgres'
  }

  /**
   * Places bids on one lot, in order, in one statement (numisma_place_bids); nothing is written for
   * a bid unless its answer is a `response`. Outside a transaction (`tx` = the pool) the statement
   * is its own autocommit transaction. It never waits for the lot's lock but answers `busy` (see
   * BiddingService.bidInOneStatement).
   */
  async placeBidsInOneStatement(
    bids: OneStatementBidInput[],
    options: { now: number; quotaMultiplier: number; idempotencyTtlMs: number },
    tx: Tx = this.db,
  ): Promise<OneStatementBid[]> {
    const { rows } = await sql<{ results: OneStatementBid[] }>`
      select numisma_place_bids(${JSON.stringify(bids)}::jsonb, ${options.now},
        ${options.quotaMultiplier}, ${options.idempotencyTtlMs}) as results`.execute(tx)
    return rows[0]!.results
  }

  /** Waits for the lot's row lock in `tx` (PostgreSQL), reading nothing. */
  async waitForLot(tx: Tx, lotId: number): Promise<void> {
    await tx.selectFrom('lots').select('id').where('id', '=', lotId).forUpdate().execute()
  }

  /** Reads a lot for update: on PostgreSQL this row lock is what serialises bids on one lot. */
  lockLot(tx: Tx, lotId: number): Promise<LockedLot | undefined> {
    return this.readLot(tx, lotId, true)
  }

  /** The lot as last committed, without a lock (for refusing stale bids early). */
  peekLot(lotId: number): Promise<LockedLot | undefined> {
    return this.readLot(this.db, lotId, false)
  }

  private async readLot(tx: Tx, lotId: number, lock: boolean): Promise<LockedLot | undefined> {
    let query = tx
      .selectFrom('lots')
      .innerJoin('specials', 'specials.id', 'lots.special_id')
      .select([
        'lots.id',
        'lots.title',
        'lots.status',
        'lots.start_price',
        'lots.reserve_price',
        'lots.price',
        'lots.leader_id',
        'lots.leader_since',
        'lots.starts_at',
        'lots.ends_at',
        'lots.bid_count',
        'specials.soft_close_window_seconds',
        'specials.soft_close_extend_seconds',
      ])
      .where('lots.id', '=', lotId)
    if (lock && this.dialect === 'postgres') query = query.forUpdate('lots')
    const row = await query.executeTakeFirst()
    return (
      row && {
        id: row.id,
        title: row.title,
        status: row.status,
        startPrice: row.start_price,
        reservePrice: row.reserve_price,
        price: row.price,
        leaderId: row.leader_id,
        leaderSince: row.leader_since,
        startsAt: row.starts_at,
        endsAt: row.ends_at,
        bidCount: row.bid_count,
        softCloseWindowSeconds: row.soft_close_window_seconds,
        softCloseExtendSeconds: row.soft_close_extend_seconds,
      }
    )
  }

  async proxies(tx: Tx, lotId: number): Promise<ProxyMax[]> {
    const rows = await tx.selectFrom('proxies').selectAll().where('lot_id', '=', lotId).execute()
    return rows.map((r) => ({
      userId: r.user_id,
      max: r.max_amount,
      since: r.since,
      active: r.active === 1,
    }))
  }

  async saveState(
    tx: Tx,
    lotId: number,
    state: LotState,
    before: ProxyMax[],
    now: number,
  ): Promise<void> {
    await tx
      .updateTable('lots')
      .set({
        price: state.price,
        leader_id: state.leaderId,
        leader_since: state.leaderSince,
        bid_count: state.bidCount,
        ends_at: state.endsAt,
      })
      .where('id', '=', lotId)
      .execute()
    for (const proxy of state.proxies) {
      const old = before.find((p) => p.userId === proxy.userId)
      if (old && old.max === proxy.max && old.active === proxy.active && old.since === proxy.since)
        continue
      await tx
        .insertInto('proxies')
        .values({
          lot_id: lotId,
          user_id: proxy.userId,
          max_amount: proxy.max,
          since: proxy.since,
          active: proxy.active ? 1 : 0,
          cancelled_at: null,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['lot_id', 'user_id']).doUpdateSet({
            // A new proxy on a lot where an earlier one was cancelled is live again.
            cancelled_at: proxy.active ? null : undefined,
            max_amount: proxy.max,
            since: proxy.since,
            active: proxy.active ? 1 : 0,
            updated_at: now,
          }),
        )
        .execute()
    }
  }

  async markProxyCancelled(tx: Tx, lotId: number, userId: number, now: number): Promise<void> {
    await tx
      .updateTable('proxies')
      .set({ cancelled_at: now })
      .where('lot_id', '=', lotId)
      .where('user_id', '=', userId)
      .execute()
  }

  async insertChanges(tx: Tx, lotId: number, changes: PriceChange[], now: number): Promise<void> {
    if (changes.length === 0) return
    await tx
      .insertInto('bids')
      .values(
        changes.map((c) => ({
          lot_id: lotId,
          user_id: c.userId,
          amount: c.amount,
          auto: c.auto ? 1 : 0,
          created_at: now,
        })),
      )
      .execute()
  }

  /**
   * Everything the quota check needs (DESIGN §4), in one round trip: the deposit, the lots the user
   * leads, their active proxy maxima on open lots, and unpaid won auction orders.
   */
  async exposure(tx: Tx, userId: number, options: { lock: boolean }): Promise<Exposure> {
    if (options.lock && this.dialect === 'postgres') {
      // Serialise one user's bids on different lots: each locks its own lot only, so without this
      // two could both pass the quota check (SQLite's BEGIN IMMEDIATE already serialises all).
      await tx
        .selectFrom('ledger_accounts')
        .select('id')
        .where('user_id', '=', userId)
        .where('kind', '=', 'deposit')
        .forUpdate()
        .execute()
    }
    const rows = await tx
      .selectFrom('lots')
      .select(['id as lot_id', sql<string>`'lead'`.as('kind'), 'price as amount'])
      .where('leader_id', '=', userId)
      .where('status', '=', 'open')
      .unionAll(
        tx
          .selectFrom('proxies')
          .innerJoin('lots', 'lots.id', 'proxies.lot_id')
          .select([
            'proxies.lot_id',
            sql<string>`'proxy'`.as('kind'),
            'proxies.max_amount as amount',
          ])
          .where('proxies.user_id', '=', userId)
          .where('proxies.active', '=', 1)
          .where('lots.status', '=', 'open'),
      )
      .unionAll(
        tx
          .selectFrom('orders')
          .select((eb) => [
            eb.lit(0).as('lot_id'),
            sql<string>`'unpaid'`.as('kind'),
            // Cast so PostgreSQL returns int8 (parsed to a number), not numeric (a string).
            sql<number>`cast(coalesce(sum(${sql.ref('total')}), 0) as bigint)`.as('amount'),
          ])
          .where('user_id', '=', userId)
          .where('kind', '=', 'auction')
          // An overdue order is still owed: its deposit stays held until it is paid or forfeited.
          .where('status', 'in', ['pending_payment', 'overdue']),
      )
      .unionAll(
        tx
          .selectFrom('orders')
          .select((eb) => [
            eb.lit(0).as('lot_id'),
            sql<string>`'overdue'`.as('kind'),
            // The hammer (`amount`) is what a forfeit takes from the deposit.
            sql<number>`cast(coalesce(sum(${sql.ref('amount')}), 0) as bigint)`.as('amount'),
          ])
          .where('user_id', '=', userId)
          .where('kind', '=', 'auction')
          .where('status', '=', 'overdue'),
      )
      .unionAll(
        tx
          .selectFrom('orders')
          .select((eb) => [
            eb.lit(0).as('lot_id'),
            sql<string>`'overdue_total'`.as('kind'),
            sql<number>`cast(coalesce(sum(${sql.ref('total')}), 0) as bigint)`.as('amount'),
          ])
          .where('user_id', '=', userId)
          .where('kind', '=', 'auction')
          .where('status', '=', 'overdue'),
      )
      .unionAll(
        tx
          .selectFrom('ledger_accounts')
          .select((eb) => [
            eb.lit(0).as('lot_id'),
            sql<string>`'deposit'`.as('kind'),
            'balance as amount',
          ])
          .where('user_id', '=', userId)
          .where('kind', '=', 'deposit'),
      )
      .execute()
    const of = (kind: string) => rows.filter((r) => r.kind === kind)
    const sum = (kind: string) => of(kind).reduce((total, r) => total + (r.amount ?? 0), 0)
    return {
      deposit: sum('deposit'),
      leading: of('lead').map((r) => ({ id: r.lot_id, price: r.amount ?? 0 })),
      proxies: of('proxy').map((r) => ({ lot_id: r.lot_id, max_amount: r.amount ?? 0 })),
      unpaidOrders: sum('unpaid'),
      overdue: { hammer: sum('overdue'), total: sum('overdue_total') },
    }
  }

  /** Whether the user has a won lot unpaid past its due time (index `orders_user`). */
  async hasOverdueOrders(tx: Tx, userId: number): Promise<boolean> {
    const row = await tx
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'overdue')
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /** Whether the user has an overdue order, as last committed (outside any transaction). */
  committedOverdue(userId: number): Promise<boolean> {
    return this.hasOverdueOrders(this.db, userId)
  }

  /** The exposure as last committed, for display (the bid check reads it inside its lock). */
  committedExposure(userId: number): Promise<Exposure> {
    return this.exposure(this.db, userId, { lock: false })
  }

  /**
   * A user's stake in a lot in one round trip: their active proxy's maximum and their order if
   * they won it (each null when there is none).
   */
  async stakeIn(
    lotId: number,
    userId: number,
  ): Promise<{ myMax: number | null; orderId: number | null }> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('proxies')
          .select('max_amount')
          .where('lot_id', '=', lotId)
          .where('user_id', '=', userId)
          .where('active', '=', 1)
          .limit(1)
          .as('my_max'),
        eb
          .selectFrom('orders')
          .select('id')
          .where('lot_id', '=', lotId)
          .where('user_id', '=', userId)
          .where('kind', '=', 'auction')
          .limit(1)
          .as('order_id'),
      ])
      .executeTakeFirstOrThrow()
    const asNumber = (v: number | string | null) => (v === null ? null : Number(v))
    return { myMax: asNumber(row.my_max), orderId: asNumber(row.order_id) }
  }

  leaderDisplay(tx: Tx, userId: number) {
    return tx.selectFrom('users').select('display').where('id', '=', userId).executeTakeFirst()
  }

  // Closing (the sweeper).

  /** Open lots past their end; on PostgreSQL rows another sweeper holds are skipped. */
  dueLots(tx: Tx, now: number, limit: number) {
    let due = tx
      .selectFrom('lots')
      .select(['id', 'title', 'price', 'leader_id', 'reserve_price', 'bid_count', 'ends_at'])
      .where('status', '=', 'open')
      .where('ends_at', '<=', now)
      .orderBy('ends_at')
      .limit(limit)
    if (this.dialect === 'postgres') due = due.forUpdate().skipLocked()
    return due.execute()
  }

  /** Records the outcome; false when the lot was already closed (by another sweeper). */
  async markClosed(tx: Tx, lotId: number, outcome: 'sold' | 'unsold'): Promise<boolean> {
    const updated = await tx
      .updateTable('lots')
      .set({ status: outcome })
      .where('id', '=', lotId)
      .where('status', '=', 'open')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /**
   * The winner's pending-payment order; the unique lot_id makes it exist at most once. Its id, or
   * undefined when the lot had one already.
   */
  async createAuctionOrder(
    tx: Tx,
    order: {
      userId: number
      lotId: number
      hammer: number
      fee: number
      dueAt: number
      now: number
    },
  ): Promise<number | undefined> {
    const row = await tx
      .insertInto('orders')
      .values({
        user_id: order.userId,
        kind: 'auction',
        lot_id: order.lotId,
        mall_item_id: null,
        quantity: 1,
        amount: order.hammer,
        fee: order.fee,
        total: order.hammer + order.fee,
        status: 'pending_payment',
        due_at: order.dueAt,
        created_at: order.now,
        paid_at: null,
      })
      .onConflict((oc) => oc.column('lot_id').doNothing())
      .returning('id')
      .executeTakeFirst()
    return row?.id
  }

  /**
   * Stops the users' live proxies on open lots (they became overdue winners, DESIGN §4): no more
   * automatic bids for them; bids already placed stand, and a lot they lead keeps its price. Marked
   * cancelled, so "my proxy bids" shows them stopped; a new proxy after paying revives the row.
   */
  async stopProxiesOf(tx: Tx, userIds: readonly number[], now: number): Promise<void> {
    if (userIds.length === 0) return
    await tx
      .updateTable('proxies')
      .set({ active: 0, cancelled_at: now, updated_at: now })
      .where('user_id', 'in', [...userIds])
      .where('active', '=', 1)
      .where('lot_id', 'in', (eb) =>
        eb.selectFrom('lots').select('lots.id').where('lots.status', '=', 'open'),
      )
      .execute()
  }

  async deactivateProxies(tx: Tx, lotId: number): Promise<void> {
    await tx.updateTable('proxies').set({ active: 0 }).where('lot_id', '=', lotId).execute()
  }
}
