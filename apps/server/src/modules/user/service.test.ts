import { describe, expect, it } from 'vitest'
import { AppError } from '../../platform/errors'
import type { UserProfileRow } from './repository'
import { UserService } from './service'

/** UserService with fakes: the user centre's figures without a database. */
const CREATED = Date.UTC(2026, 0, 2, 3, 4, 5)

function setup(
  profile: UserProfileRow | undefined,
  more: { payPasswordSet?: boolean; orders?: Record<string, number> } = {},
) {
  return new UserService({
    users: {
      findProfile: () => Promise.resolve(profile),
      orderCountsByStatus: (_userId, statuses) =>
        Promise.resolve(
          Object.fromEntries(
            Object.entries(more.orders ?? {}).filter(([status]) => statuses.includes(status)),
          ),
        ),
    },
    ledger: { balances: () => Promise.resolve({ balance: 1_200, deposit: 50_000 }) },
    bidding: {
      quotaOf: () =>
        Promise.resolve({
          deposit: 50_000,
          quota: 500_000,
          exposure: 120_000,
          freeDeposit: 38_000,
        }),
      counts: () => Promise.resolve({ bidding: 2, watching: 3, entrusted: 1, pendingPayment: 0 }),
    },
    coupons: { usableCount: () => Promise.resolve(4) },
    mall: { watchCount: () => Promise.resolve(2) },
    notices: { unreadCount: (userId) => Promise.resolve(userId === 8 ? 3 : 0) },
    chat: { unreadCount: (userId) => Promise.resolve(userId === 8 ? 5 : 0) },
    payPasswords: { isSet: () => Promise.resolve(more.payPasswordSet ?? false) },
  })
}

describe('UserService.statistics', () => {
  it('counts watched lots and watched mall items together, as /myLike lists both', async () => {
    const service = setup({
      id: 8,
      mobile: '13900000008',
      display: '藏友0008',
      avatar: null,
      created_at: CREATED,
    })
    expect((await service.statistics(8)).counts.watching).toBe(5)
  })

  it('reports the deposit, the quota derived from it and the exposure under their own names', async () => {
    const service = setup({
      id: 8,
      mobile: '13900000008',
      display: '藏友0008',
      avatar: null,
      created_at: CREATED,
    })
    expect(await service.statistics(8)).toEqual({
      userId: '8',
      display: '藏友0008',
      mobile: '13900000008',
      avatar: null,
      createdAt: new Date(CREATED).toISOString(),
      balance: 1_200,
      deposit: 50_000,
      quota: 500_000,
      exposure: 120_000,
      freeDeposit: 38_000,
      payPasswordSet: false,
      counts: {
        bidding: 2,
        watching: 5,
        entrusted: 1,
        pendingPayment: 0,
        coupons: 4,
        waitingToShip: 0,
        waitingToReceive: 0,
        unreadNotices: 3,
        unreadChat: 5,
      },
    })
  })

  it('says whether a payment password is set, as the account module knows it', async () => {
    const profile = {
      id: 8,
      mobile: '13900000008',
      display: '藏友0008',
      avatar: null,
      created_at: CREATED,
    }
    expect((await setup(profile).statistics(8)).payPasswordSet).toBe(false)
    expect((await setup(profile, { payPasswordSet: true }).statistics(8)).payPasswordSet).toBe(true)
  })

  it('counts orders to ship (paid, delivery applied) and to receive (shipped) per group', async () => {
    const service = setup(
      { id: 8, mobile: '13900000008', display: '藏友0008', avatar: null, created_at: CREATED },
      { orders: { paid: 2, delivery_applied: 1, shipped: 3, completed: 7, cancelled: 4 } },
    )
    const { counts } = await service.statistics(8)
    expect(counts.waitingToShip).toBe(3)
    expect(counts.waitingToReceive).toBe(3)
  })

  it('treats a session whose user is gone as invalid', async () => {
    const error = await setup(undefined)
      .statistics(8)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('SESSION_INVALID')
  })
})
