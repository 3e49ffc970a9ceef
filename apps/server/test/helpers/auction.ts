import { CatalogRepository } from '../../src/modules/catalog/repository'
import { LedgerService } from '../../src/modules/ledger/service'
import type { TestApp } from './app'

const MINUTE = 60_000

export interface LotOverrides {
  startPrice?: number
  reservePrice?: number | null
  startsAt?: number
  endsAt?: number
  softCloseWindowSeconds?: number
  softCloseExtendSeconds?: number
}

/** A special with `count` open lots (test data builder); returns their ids in lot order. */
export async function createLots(
  t: TestApp,
  count: number,
  overrides: LotOverrides = {},
): Promise<number[]> {
  const repo = new CatalogRepository(t.database.db)
  const now = t.clock.now()
  const startsAt = overrides.startsAt ?? now - MINUTE
  const endsAt = overrides.endsAt ?? now + 60 * MINUTE
  const specialId = await repo.insertSpecial({
    title: '测试专场',
    subtitle: '',
    description: '',
    cover: '',
    starts_at: startsAt,
    ends_at: endsAt,
    stagger_seconds: 30,
    soft_close_window_seconds: overrides.softCloseWindowSeconds ?? 300,
    soft_close_extend_seconds: overrides.softCloseExtendSeconds ?? 300,
    created_at: now,
  })
  await repo.insertLots(
    Array.from({ length: count }, (_, i) => ({
      special_id: specialId,
      lot_no: i + 1,
      category_id: null,
      title: count === 1 ? '民国三年袁世凯像壹圆' : `民国三年袁世凯像壹圆 ${i + 1}`,
      subtitle: '',
      description: '',
      images: '[]',
      grade_code: 24,
      grading_service: null,
      cert_no: null,
      year: '1914',
      denomination: '壹圆',
      material: '银',
      start_price: overrides.startPrice ?? 100_000,
      reserve_price: overrides.reservePrice ?? null,
      starts_at: startsAt,
      ends_at: endsAt,
      export_banned: 0,
      status: 'open',
      price: null,
      bid_count: 0,
      leader_id: null,
      created_at: now,
    })),
  )
  return (await repo.lotsOfSpecial(specialId)).map((lot) => lot.id)
}

/** A special with one open lot, built straight through the repository (test data builder). */
export async function createLot(t: TestApp, overrides: LotOverrides = {}): Promise<number> {
  const [id] = await createLots(t, 1, overrides)
  return id!
}

export async function creditDeposit(t: TestApp, userId: string, amount: number): Promise<void> {
  await new LedgerService(t.database, t.clock).creditDeposit(Number(userId), amount, 'test')
}
