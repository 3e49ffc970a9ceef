import type { Database } from '../../src/platform/db'

/**
 * A lot as the database holds it: its row's price, leader and bid count, its bid history in
 * order, and its proxies — what the process suites (crash-safety, multi-process) check a lot by.
 */
export async function readLotRecord(database: Database, lotId: number) {
  const db = database.db
  const lot = await db
    .selectFrom('lots')
    .select(['price', 'leader_id', 'bid_count'])
    .where('id', '=', lotId)
    .executeTakeFirstOrThrow()
  const bids = await db
    .selectFrom('bids')
    .select(['id', 'user_id', 'amount', 'auto'])
    .where('lot_id', '=', lotId)
    .orderBy('id')
    .execute()
  const proxies = await db
    .selectFrom('proxies')
    .select(['user_id', 'max_amount', 'active'])
    .where('lot_id', '=', lotId)
    .execute()
  return { lot, bids, proxies }
}
