import type { AccountKind } from '@numisma/domain/ledger'
import type { Leg } from '@numisma/domain/postings'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Claim } from '../../platform/idempotency'
import type { Tx } from '../../platform/transactions'
import { FinanceService } from './finance-service'

/** FinanceService with fakes: the balance ↔ deposit rules and their order of steps, no database. */
function setup(start: {
  balance: number
  deposit: number
  exposure: number
  overdue?: { hammer: number; total: number }
}) {
  const steps: string[] = []
  const accounts = new Map<AccountKind, number>([
    ['balance', start.balance],
    ['deposit', start.deposit],
  ])
  const stored = new Map<string, { hash: string; result: unknown }>()
  const posted: { kind: string; legs: readonly Leg[] }[] = []
  const tx = {} as Tx
  const service = new FinanceService({
    transact: (work) => work(tx),
    clock: new FakeClock(1_800_000_000_000),
    ledger: {
      lock: (_tx, _userId, kinds) => {
        steps.push(`lock ${kinds.join(',')}`)
        return Promise.resolve()
      },
      balanceIn: (_tx, _userId, kind) => Promise.resolve(accounts.get(kind) ?? 0),
      post: (_tx, _userId, transfer, legs) => {
        steps.push('post')
        posted.push({ kind: transfer.kind, legs })
        for (const leg of legs) {
          if (leg.owner === 'user')
            accounts.set(leg.kind, (accounts.get(leg.kind) ?? 0) + leg.amount)
        }
        return Promise.resolve(posted.length)
      },
    },
    holds: {
      heldDeposit: () => {
        steps.push('held')
        return Promise.resolve({
          deposit: accounts.get('deposit') ?? 0,
          exposure: start.exposure,
          multiplier: 10,
          overdue: start.overdue ?? { hammer: 0, total: 0 },
        })
      },
    },
    idempotency: {
      claim: <T>(_tx: Tx, owner: number, key: string, hash: string): Promise<Claim<T>> => {
        steps.push('claim')
        const seen = stored.get(`${owner}:${key}`)
        if (!seen) {
          stored.set(`${owner}:${key}`, { hash, result: undefined })
          return Promise.resolve({ kind: 'new' })
        }
        if (seen.hash !== hash) return Promise.reject(new AppError('IDEMPOTENCY_KEY_REUSED'))
        return Promise.resolve({ kind: 'replay', result: seen.result as T })
      },
      complete: (_tx, owner, key, result) => {
        const seen = stored.get(`${owner}:${key}`)
        if (seen) seen.result = result
        return Promise.resolve()
      },
    },
  })
  return { service, steps, posted, accounts }
}

const code = (error: unknown) => (error as AppError).code

describe('FinanceService.move', () => {
  it('moves balance to deposit through the moveToDeposit rule', async () => {
    const s = setup({ balance: 50_000, deposit: 10_000, exposure: 0 })
    expect(await s.service.move(7, 7, 20_000)).toEqual({
      balance: 30_000,
      deposit: 30_000,
      freeDeposit: 30_000,
    })
    expect(s.posted).toEqual([
      {
        kind: 'move_to_deposit',
        legs: [
          { owner: 'user', kind: 'balance', amount: -20_000 },
          { owner: 'user', kind: 'deposit', amount: 20_000 },
        ],
      },
    ])
  })

  it('moves free deposit back to the balance, up to the fen exposure leaves', async () => {
    // 10,000 deposit, 60,001 exposed at × 10: 6,001 needed, 3,999 free.
    const s = setup({ balance: 0, deposit: 10_000, exposure: 60_001 })
    expect(await s.service.move(7, 7, -3_999)).toEqual({
      balance: 3_999,
      deposit: 6_001,
      freeDeposit: 0,
    })
    expect(s.posted[0]?.kind).toBe('move_to_balance')
  })

  it('refuses deposit the exposure holds with DEPOSIT_IN_USE and what is free', async () => {
    const s = setup({ balance: 0, deposit: 10_000, exposure: 60_001 })
    const error = await s.service.move(7, 7, -4_000).catch((e: unknown) => e)
    expect(code(error)).toBe('DEPOSIT_IN_USE')
    expect((error as AppError).details).toMatchObject({ free: 3_999 })
    expect(s.posted).toEqual([])
  })

  it("holds what an overdue lot's forfeit would take: its hammer, up to the deposit", async () => {
    // Hammer 5,000 (total 5,500) overdue on a 10,000 deposit: 5,000 may still move.
    const s = setup({
      balance: 0,
      deposit: 10_000,
      exposure: 5_500,
      overdue: { hammer: 5_000, total: 5_500 },
    })
    const error = await s.service.move(7, 7, -5_001).catch((e: unknown) => e)
    expect(code(error)).toBe('DEPOSIT_IN_USE')
    expect((error as AppError).details).toMatchObject({
      free: 5_000,
      overdue: true,
      overdueClaim: 5_000,
    })
    expect(s.posted).toEqual([])
    expect(await s.service.move(7, 7, -5_000)).toMatchObject({ deposit: 5_000, freeDeposit: 0 })
  })

  it('refuses more than the balance with BALANCE_LOW', async () => {
    const s = setup({ balance: 5_000, deposit: 0, exposure: 0 })
    const error = await s.service.move(7, 7, 5_001).catch((e: unknown) => e)
    expect(code(error)).toBe('BALANCE_LOW')
    expect((error as AppError).details).toEqual({ balance: 5_000 })
    expect(s.posted).toEqual([])
    expect(await s.service.move(7, 7, 5_000)).toMatchObject({ balance: 0, deposit: 5_000 })
  })

  it("answers another user's id with NOT_FOUND before touching anything", async () => {
    const s = setup({ balance: 5_000, deposit: 0, exposure: 0 })
    expect(code(await s.service.move(7, 8, 100).catch((e: unknown) => e))).toBe('NOT_FOUND')
    expect(s.steps).toEqual([])
  })

  it('judges under the locks: accounts, then the exposure, then the key, then the transfer', async () => {
    const s = setup({ balance: 5_000, deposit: 0, exposure: 0 })
    await s.service.move(7, 7, 1_000, 'move-key-0001')
    expect(s.steps).toEqual(['lock balance,deposit', 'held', 'claim', 'post'])
  })

  it('replays a retry with the same key without moving money twice', async () => {
    const s = setup({ balance: 5_000, deposit: 0, exposure: 0 })
    const first = await s.service.move(7, 7, 1_000, 'move-key-0001')
    expect(await s.service.move(7, 7, 1_000, 'move-key-0001')).toEqual(first)
    expect(s.posted).toHaveLength(1)
    expect(s.accounts.get('balance')).toBe(4_000)
    const reused = await s.service.move(7, 7, 2_000, 'move-key-0001').catch((e: unknown) => e)
    expect(code(reused)).toBe('IDEMPOTENCY_KEY_REUSED')
  })
})
