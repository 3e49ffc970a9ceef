import { PAY_LOCK_HOURS, PAY_PASSWORD_MAX_TRIES } from '@numisma/contracts/account'
import { describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type { PayPasswordHasher } from './pay-password-hasher'
import { PayPasswordVerifier } from './pay-password-verifier'
import type { StoredPayPassword } from './repository'
import { AccountService } from './service'

/**
 * AccountService and PayPasswordVerifier with fakes (the Immich pattern): the rules of DESIGN §3 —
 * proof to change, five wrong tries lock for three hours, a right one resets — without a database
 * or argon2 (the integration test, pay-password.test.ts, covers both).
 */
const NOW = Date.UTC(2026, 10, 23, 2, 0, 0)
const LOCK_MS = PAY_LOCK_HOURS * 3_600_000
const USER = 7
const MOBILE = '13900000007'

/** A stand-in for argon2: visibly not the digits, and cheap. */
const fakeHasher = () => ({
  hash: vi.fn<PayPasswordHasher['hash']>((password) => Promise.resolve(`hashed(${password})`)),
  verify: vi.fn<PayPasswordHasher['verify']>((hash, password) =>
    Promise.resolve(hash === `hashed(${password})`),
  ),
})

/** The pay_passwords table as a map, with the repository's methods. */
/** `null`: the user has no password yet; otherwise 111111, with `initial` over it. */
function fakeAccounts(initial: Partial<StoredPayPassword> | null) {
  const rows = new Map<number, StoredPayPassword>()
  if (initial) {
    rows.set(USER, { hash: 'hashed(111111)', failedTries: 0, lockedUntil: null, ...initial })
  }
  const copy = (row: StoredPayPassword | undefined) => (row ? { ...row } : undefined)
  return {
    rows,
    find: vi.fn((userId: number) => Promise.resolve(copy(rows.get(userId)))),
    lock: vi.fn((_tx: Tx, userId: number) => Promise.resolve(copy(rows.get(userId)))),
    saveTries: vi.fn(
      (
        _tx: Tx,
        userId: number,
        tries: { failedTries: number; lockedUntil: number | null },
        _now: number,
      ) => {
        rows.set(userId, { ...rows.get(userId)!, ...tries })
        return Promise.resolve()
      },
    ),
    insertIfMissing: vi.fn((userId: number, hash: string) => {
      if (rows.has(userId)) return Promise.resolve(false)
      rows.set(userId, { hash, failedTries: 0, lockedUntil: null })
      return Promise.resolve(true)
    }),
    replaceHash: vi.fn((userId: number, hash: string, _now: number, expected?: string) => {
      const row = rows.get(userId)
      if (!row || (expected !== undefined && row.hash !== expected)) return Promise.resolve(false)
      rows.set(userId, { ...row, hash, failedTries: 0 })
      return Promise.resolve(true)
    }),
    mobileOf: vi.fn(() => Promise.resolve(MOBILE)),
  }
}

function setup(initial: Partial<StoredPayPassword> | null = {}) {
  const clock = new FakeClock(NOW)
  const accounts = fakeAccounts(initial)
  const hasher = fakeHasher()
  const transact = vi.fn((work: (tx: Tx) => Promise<unknown>) => work({} as Tx))
  const verifier = new PayPasswordVerifier({
    transact: transact as unknown as Transact,
    clock,
    passwords: accounts,
    hasher,
  })
  const consumeSmsCode = vi.fn((_mobile: string, code: string) =>
    code === '654321' ? Promise.resolve() : Promise.reject(new AppError('SMS_CODE_INVALID')),
  )
  const service = new AccountService({ clock, accounts, hasher, verifier, consumeSmsCode })
  const stored = () => accounts.rows.get(USER)
  return { clock, accounts, hasher, verifier, service, consumeSmsCode, stored }
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('AccountService.settings', () => {
  it('says whether a password is set, and a lock only while it runs', async () => {
    expect(await setup(null).service.settings(USER)).toEqual({
      payPasswordSet: false,
      payLockedUntil: null,
    })
    const locked = setup({ lockedUntil: NOW + 60_000 })
    expect(await locked.service.settings(USER)).toEqual({
      payPasswordSet: true,
      payLockedUntil: new Date(NOW + 60_000).toISOString(),
    })
    locked.clock.advance(60_000)
    expect((await locked.service.settings(USER)).payLockedUntil).toBeNull()
  })
})

describe('AccountService.setPayPassword', () => {
  it('sets a first password without proof, storing only its hash', async () => {
    const s = setup(null)
    expect(await s.service.setPayPassword(USER, { password: '123456' })).toEqual({
      payPasswordSet: true,
    })
    expect(s.stored()).toEqual({ hash: 'hashed(123456)', failedTries: 0, lockedUntil: null })
  })

  it('refuses a change without the old password or an SMS code, and keeps the old one', async () => {
    const s = setup()
    const error = await refusal(s.service.setPayPassword(USER, { password: '222222' }))
    expect(error.code).toBe('PAY_PASSWORD_PROOF_REQUIRED')
    expect(s.stored()?.hash).toBe('hashed(111111)')
    expect(s.hasher.hash).not.toHaveBeenCalled()
  })

  it('treats a first set that lost a race to a concurrent one as a change needing proof', async () => {
    const s = setup()
    s.accounts.find.mockResolvedValueOnce(undefined)
    const error = await refusal(s.service.setPayPassword(USER, { password: '222222' }))
    expect(error.code).toBe('PAY_PASSWORD_PROOF_REQUIRED')
    expect(s.stored()?.hash).toBe('hashed(111111)')
  })

  it('changes it with the right old password, starting a fresh count', async () => {
    const s = setup({ failedTries: 3 })
    await s.service.setPayPassword(USER, { password: '222222', oldPassword: '111111' })
    expect(s.stored()).toEqual({ hash: 'hashed(222222)', failedTries: 0, lockedUntil: null })
  })

  it('counts a wrong old password as a wrong try and changes nothing', async () => {
    const s = setup({ failedTries: 1 })
    const error = await refusal(
      s.service.setPayPassword(USER, { password: '222222', oldPassword: '999999' }),
    )
    expect(error.code).toBe('PAY_PASSWORD_WRONG')
    expect(error.details).toEqual({ triesLeft: PAY_PASSWORD_MAX_TRIES - 2 })
    expect(s.stored()).toMatchObject({ hash: 'hashed(111111)', failedTries: 2 })
  })

  it('refuses the old password while locked, without checking it', async () => {
    const s = setup({ failedTries: 5, lockedUntil: NOW + LOCK_MS })
    const error = await refusal(
      s.service.setPayPassword(USER, { password: '222222', oldPassword: '111111' }),
    )
    expect(error.code).toBe('PAY_LOCKED')
    expect(s.hasher.verify).not.toHaveBeenCalled()
  })

  it('does not replace a password that changed after the old one was proven', async () => {
    const s = setup()
    s.accounts.replaceHash.mockResolvedValueOnce(false)
    const error = await refusal(
      s.service.setPayPassword(USER, { password: '222222', oldPassword: '111111' }),
    )
    expect(error.code).toBe('PAY_PASSWORD_WRONG')
    expect(s.accounts.replaceHash).toHaveBeenCalledWith(
      USER,
      'hashed(222222)',
      NOW,
      'hashed(111111)',
    )
  })

  it('changes it with an SMS code sent to the own mobile; a running lock stays', async () => {
    const s = setup({ failedTries: 5, lockedUntil: NOW + LOCK_MS })
    await s.service.setPayPassword(USER, { password: '222222', smsCode: '654321' })
    expect(s.consumeSmsCode).toHaveBeenCalledWith(MOBILE, '654321')
    expect(s.stored()).toEqual({
      hash: 'hashed(222222)',
      failedTries: 0,
      lockedUntil: NOW + LOCK_MS,
    })
  })

  it('keeps the old password when the SMS code is wrong', async () => {
    const s = setup()
    const error = await refusal(
      s.service.setPayPassword(USER, { password: '222222', smsCode: '000000' }),
    )
    expect(error.code).toBe('SMS_CODE_INVALID')
    expect(s.stored()?.hash).toBe('hashed(111111)')
  })
})

describe('PayPasswordVerifier', () => {
  it('refuses when no password is set', async () => {
    expect((await refusal(setup(null).verifier.verify(USER, '123456'))).code).toBe(
      'PAY_PASSWORD_NOT_SET',
    )
  })

  it('refuses a missing password without counting it', async () => {
    const s = setup()
    const error = await refusal(s.verifier.verify(USER, undefined))
    expect(error.code).toBe('PAY_PASSWORD_WRONG')
    expect(s.stored()?.failedTries).toBe(0)
  })

  it('locks payment for 3 hours at the fifth wrong try; even the right one waits it out', async () => {
    const s = setup()
    for (let tries = 1; tries < PAY_PASSWORD_MAX_TRIES; tries++) {
      const error = await refusal(s.verifier.verify(USER, '999999'))
      expect(error.code).toBe('PAY_PASSWORD_WRONG')
      expect(error.details).toEqual({ triesLeft: PAY_PASSWORD_MAX_TRIES - tries })
    }
    const fifth = await refusal(s.verifier.verify(USER, '999999'))
    const until = new Date(NOW + LOCK_MS).toISOString()
    expect(fifth.code).toBe('PAY_LOCKED')
    expect(fifth.details).toEqual({ until })
    expect(s.stored()).toMatchObject({ failedTries: 5, lockedUntil: NOW + LOCK_MS })

    s.clock.advance(LOCK_MS - 1)
    const sixth = await refusal(s.verifier.verify(USER, '111111'))
    expect(sixth.code).toBe('PAY_LOCKED')
    expect(sixth.details).toEqual({ until })

    s.clock.advance(1)
    await s.verifier.verify(USER, '111111')
    expect(s.stored()).toMatchObject({ failedTries: 0, lockedUntil: null })
  })

  it('resets the count on a right password', async () => {
    const s = setup({ failedTries: 4 })
    await s.verifier.verify(USER, '111111')
    expect(s.stored()?.failedTries).toBe(0)
    const error = await refusal(s.verifier.verify(USER, '999999'))
    expect(error.details).toEqual({ triesLeft: PAY_PASSWORD_MAX_TRIES - 1 })
  })

  it('starts a fresh count once a lock has run out', async () => {
    const s = setup({ failedTries: 5, lockedUntil: NOW - 1 })
    const error = await refusal(s.verifier.verify(USER, '999999'))
    expect(error.code).toBe('PAY_PASSWORD_WRONG')
    expect(s.stored()).toEqual({ hash: 'hashed(111111)', failedTries: 1, lockedUntil: null })
  })

  it('judges the lock again under the row lock: a right try that lost the race is refused', async () => {
    const s = setup({ failedTries: 4 })
    // While the right password is being hashed, a concurrent wrong try locks payment.
    s.hasher.verify.mockImplementationOnce(() => {
      s.accounts.rows.set(USER, {
        hash: 'hashed(111111)',
        failedTries: 5,
        lockedUntil: NOW + LOCK_MS,
      })
      return Promise.resolve(true)
    })
    expect((await refusal(s.verifier.verify(USER, '111111'))).code).toBe('PAY_LOCKED')
    expect(s.stored()?.failedTries).toBe(5)
  })

  it('checks again when the password changed while hashing, and counts nothing stale', async () => {
    const s = setup()
    s.hasher.verify.mockImplementationOnce(() => {
      s.accounts.rows.set(USER, { hash: 'hashed(222222)', failedTries: 0, lockedUntil: null })
      return Promise.resolve(false)
    })
    await s.verifier.verify(USER, '222222')
    expect(s.hasher.verify).toHaveBeenCalledTimes(2)
    expect(s.stored()?.failedTries).toBe(0)
  })
})
