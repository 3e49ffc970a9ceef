import { sql } from 'kysely'
import type { Tx } from '../../platform/transactions'

/**
 * Places taken in the counter's appointment slots (table `slot_counts`, migration 0012), shared by
 * self-pickups (this module) and counter cash bookings (modules/bookings, which receives these
 * functions through app.ts): one row per (date, slot) counts both, so the two never overbook a
 * slot between them.
 *
 * Claiming is one conditional update, `booked = booked + 1 WHERE booked < capacity`, inside the
 * caller's write transaction: on PostgreSQL (READ COMMITTED) a second claimer waits on the row
 * lock the first one's update holds and re-checks `booked < capacity` on the committed count;
 * SQLite holds the write lock for the whole transaction (`BEGIN IMMEDIATE`). The row is created on
 * first use with `ON CONFLICT DO NOTHING` (a concurrent creator waits for the first, then finds
 * it). The same statements serve both dialects; `dialect` is taken so that callers need not change
 * should one ever need its own.
 */

/**
 * Takes one place in `slot` on `date` when fewer than `capacity` are taken; true when it did, false
 * when the slot is full (the caller answers `SLOT_FULL` and rolls back). Whether the date and slot
 * may be booked at all is the caller's rule (`slotRefusal` of packages/domain/src/delivery.ts).
 */
export async function claimSlotPlace(
  tx: Tx,
  date: string,
  slot: string,
  capacity: number,
): Promise<boolean> {
  if (capacity <= 0) return false
  await tx
    .insertInto('slot_counts')
    .values({ date, slot, booked: 0 })
    .onConflict((oc) => oc.columns(['date', 'slot']).doNothing())
    .execute()
  const result = await tx
    .updateTable('slot_counts')
    .set({ booked: sql<number>`booked + 1` })
    .where('date', '=', date)
    .where('slot', '=', slot)
    .where('booked', '<', capacity)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Gives a place back (a cancelled booking); never below zero. */
export async function releaseSlotPlace(tx: Tx, date: string, slot: string): Promise<void> {
  await tx
    .updateTable('slot_counts')
    .set({ booked: sql<number>`booked - 1` })
    .where('date', '=', date)
    .where('slot', '=', slot)
    .where('booked', '>', 0)
    .execute()
}

/** Places taken per `date|slot` key on the given dates (absent: none taken). */
export async function bookedPlaces(tx: Tx, dates: readonly string[]): Promise<Map<string, number>> {
  const booked = new Map<string, number>()
  if (dates.length === 0) return booked
  const rows = await tx
    .selectFrom('slot_counts')
    .select(['date', 'slot', 'booked'])
    .where('date', 'in', dates)
    .execute()
  for (const row of rows) booked.set(slotKey(row.date, row.slot), row.booked)
  return booked
}

export const slotKey = (date: string, slot: string) => `${date}|${slot}`

/** The signature modules receive through app.ts. */
export type ClaimSlotPlace = typeof claimSlotPlace
export type ReleaseSlotPlace = typeof releaseSlotPlace
