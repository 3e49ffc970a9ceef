import type { Database } from '../../platform/db'
import { transactor } from '../../platform/transactions'
import type { CouponState, StaffCoupon } from '@numisma/contracts/staff-settings'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact } from '../../platform/transactions'
import { StaffCouponRepository, type StaffCouponRow } from './staff-repository'

export interface StaffCouponDeps {
  transact: Transact
  clock: Clock
  coupons: Pick<StaffCouponRepository, keyof StaffCouponRepository>
}

const iso = (ms: number): string => new Date(ms).toISOString()

function parseList<T>(json: string, keep: (v: unknown) => v is T): T[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter(keep) : []
  } catch {
    return []
  }
}

export function couponState(
  row: Pick<StaffCouponRow, 'starts_at' | 'ends_at' | 'issued' | 'total'>,
  now: number,
): CouponState {
  if (now >= row.ends_at) return 'ended'
  if (row.issued >= row.total) return 'stopped'
  return now < row.starts_at ? 'scheduled' : 'issuing'
}

function toStaffCoupon(row: StaffCouponRow, now: number): StaffCoupon {
  return {
    id: row.id,
    title: row.title,
    kind: row.kind === 'percent' ? 'percent' : 'amount',
    threshold: row.threshold,
    amount: row.amount,
    percent: row.percent,
    cap: row.cap,
    total: row.total,
    perUser: row.per_user,
    received: row.issued,
    locked: row.locked,
    used: row.used,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    productNos: parseList(row.product_nos, (v): v is string => typeof v === 'string'),
    categoryIds: parseList(row.category_ids, (v): v is number => typeof v === 'number'),
    state: couponState(row, now),
    createdAt: iso(row.created_at),
  }
}

/**
 * Staff's coupons (issue 12): the list with what was received, held and used; and stopping the
 * issue. A coupon's terms are never edited once issued — a collector holds the coupon they
 * received — so stopping lowers the total to what has been received: no one receives another,
 * and every received coupon stays usable until its window ends.
 */
export class StaffCouponService {
  constructor(private readonly deps: StaffCouponDeps) {}

  static forDatabase(database: Database, clock: Clock): StaffCouponService {
    return new StaffCouponService({
      transact: transactor(database),
      clock,
      coupons: new StaffCouponRepository(database.db, database.dialect),
    })
  }

  async list(): Promise<StaffCoupon[]> {
    const now = this.deps.clock.now()
    return (await this.deps.coupons.list()).map((row) => toStaffCoupon(row, now))
  }

  async stopIssue(id: number): Promise<{
    before: { total: number; received: number }
    after: { total: number; received: number }
  }> {
    const { coupons, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const row = await coupons.lock(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { id })
      const state = couponState(row, clock.now())
      if (state === 'ended' || state === 'stopped')
        throw new AppError('COUPON_NOT_ISSUING', { state })
      await coupons.stopIssue(tx, id)
      return {
        before: { total: row.total, received: row.issued },
        after: { total: row.issued, received: row.issued },
      }
    })
  }
}
