import { describe, expect, it, vi } from 'vitest'
import { AppError } from '../../platform/errors'
import { CounterService } from './counter-service'

/** CounterService with fakes for the user and ledger services: no database. */
function setup(knownUsers: number[] = [5]) {
  const users = { exists: vi.fn((id: number) => Promise.resolve(knownUsers.includes(id))) }
  const balances = new Map<number, number>()
  const cash = new Map<number, number>()
  const ledger = {
    creditDeposit: vi.fn((userId: number, amount: number) => {
      balances.set(userId, (balances.get(userId) ?? 0) + amount)
      return Promise.resolve({ deposit: balances.get(userId)! })
    }),
    creditBalance: vi.fn((userId: number, amount: number) => {
      cash.set(userId, (cash.get(userId) ?? 0) + amount)
      return Promise.resolve({ balance: cash.get(userId)! })
    }),
  }
  return { service: new CounterService({ users, ledger }), ledger }
}

describe('CounterService.creditDeposit', () => {
  it("credits the user's deposit and answers with the new deposit", async () => {
    const s = setup()
    expect(await s.service.creditDeposit(1, 5, 200_000, 'counter deposit')).toEqual({
      deposit: 200_000,
    })
    expect(await s.service.creditDeposit(1, 5, 50_000, 'counter deposit')).toEqual({
      deposit: 250_000,
    })
    expect(s.ledger.creditDeposit).toHaveBeenLastCalledWith(5, 50_000, 'counter deposit', undefined)
  })

  it('keeps staff idempotency keys apart from users’ (negative owner ids)', async () => {
    const s = setup()
    await s.service.creditDeposit(9, 5, 100, 'memo', 'counter-key-1')
    expect(s.ledger.creditDeposit).toHaveBeenCalledWith(5, 100, 'memo', {
      owner: -9,
      key: 'counter-key-1',
    })
  })

  it('refuses an unknown user with NOT_FOUND and moves no money', async () => {
    const s = setup()
    const error = await s.service.creditDeposit(1, 404, 100, 'memo').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('NOT_FOUND')
    expect(s.ledger.creditDeposit).not.toHaveBeenCalled()
  })
})

describe('CounterService.creditBalance', () => {
  it("credits the user's balance, with the staff's key kept apart from users'", async () => {
    const s = setup()
    expect(await s.service.creditBalance(9, 5, 30_000, 'counter cash', 'cash-key-1')).toEqual({
      balance: 30_000,
    })
    expect(s.ledger.creditBalance).toHaveBeenLastCalledWith(5, 30_000, 'counter cash', {
      owner: -9,
      key: 'cash-key-1',
    })
    expect(s.ledger.creditDeposit).not.toHaveBeenCalled()
  })

  it('refuses an unknown user with NOT_FOUND and moves no money', async () => {
    const s = setup()
    const error = await s.service.creditBalance(1, 404, 100, 'memo').catch((e: unknown) => e)
    expect((error as AppError).code).toBe('NOT_FOUND')
    expect(s.ledger.creditBalance).not.toHaveBeenCalled()
  })
})
