import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LedgerRepository, PLATFORM } from '../src/modules/ledger/repository'
import { LedgerService } from '../src/modules/ledger/service'
import { FakeClock } from '../src/platform/clock'
import type { Database } from '../src/platform/db'
import { depositNaming } from '../src/platform/migrations/0006-deposit-naming'
import { migrationContext } from '../src/platform/migrations/index'
import { writeTransaction } from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'

const databases = await testDatabases()

describe.each(databases)('ledger on $name', (kind) => {
  let t: TestApp
  let user: Session

  beforeAll(async () => {
    t = await createTestApp(kind)
    user = await t.signIn()
  })
  afterAll(() => t.close())

  const total = async () => {
    const row = await t.database.db
      .selectFrom('ledger_accounts')
      .select((eb) => eb.fn.sum<number | string>('balance').as('sum'))
      .executeTakeFirstOrThrow()
    return Number(row.sum ?? 0)
  }

  it('keeps debits equal to credits under concurrent deposits', async () => {
    const ledger = new LedgerService(t.database, t.clock)
    await Promise.all(
      Array.from({ length: 20 }, () => ledger.creditDeposit(Number(user.userId), 1_000, 'test')),
    )
    expect((await ledger.balances(Number(user.userId))).deposit).toBe(20_000)
    expect(await total()).toBe(0)
    await expectLedgerSound(t.database)
  })

  it('refuses a transfer that would overdraw a user account, writing nothing', async () => {
    const repo = new LedgerRepository(t.database.dialect)
    const before = await t.database.db
      .selectFrom('ledger_postings')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    await expect(
      writeTransaction(t.database, async (tx) => {
        const deposit = await repo.account(tx, Number(user.userId), 'deposit')
        const revenue = await repo.account(tx, PLATFORM, 'platform_revenue')
        await repo.transfer(tx, { kind: 'test', memo: '', now: t.clock.now() }, [
          { accountId: deposit.id, kind: 'deposit', amount: -1_000_000 },
          { accountId: revenue.id, kind: 'platform_revenue', amount: 1_000_000 },
        ])
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    const after = await t.database.db
      .selectFrom('ledger_postings')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
    expect(await total()).toBe(0)
    await expectLedgerSound(t.database)
  })

  it('has the database refuse a negative user balance even past the code', async () => {
    await expect(
      t.database.db
        .updateTable('ledger_accounts')
        .set({ balance: -1 })
        .where('user_id', '=', Number(user.userId))
        .execute(),
    ).rejects.toThrow()
  })
  it('keeps the deposit in an account of kind deposit, renaming accounts of the old kind', async () => {
    const ledger = new LedgerService(t.database, t.clock)
    const fresh = await t.signIn()
    await ledger.creditDeposit(Number(fresh.userId), 3_000, 'test')
    const kinds = await t.database.db
      .selectFrom('ledger_accounts')
      .select('kind')
      .where('user_id', '=', Number(fresh.userId))
      .execute()
    expect(kinds).toEqual([{ kind: 'deposit' }])

    // A database from before 0006 holds the deposit under the kind 'quota'.
    await t.database.db
      .updateTable('ledger_accounts')
      .set({ kind: 'quota' })
      .where('user_id', '=', Number(fresh.userId))
      .execute()
    expect((await ledger.balances(Number(fresh.userId))).deposit).toBe(0)
    await depositNaming(migrationContext(t.database.dialect)).up(t.database.db)
    expect(await ledger.balances(Number(fresh.userId))).toEqual({ balance: 0, deposit: 3_000 })
  })
})

describe.each(databases)('expectLedgerSound on $name', (kind) => {
  const corrupted = async (corrupt: (database: Database) => Promise<void>) => {
    const database = await kind.open()
    try {
      const ledger = new LedgerService(database, new FakeClock(Date.now()))
      await ledger.creditDeposit(1, 5_000, 'test')
      await expectLedgerSound(database)
      await corrupt(database)
      await expect(expectLedgerSound(database)).rejects.toThrow()
    } finally {
      await database.close()
    }
  }

  it('catches an account whose balance is not the sum of its postings', () =>
    corrupted(async (database) => {
      await database.db
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', 1) }))
        .where('user_id', '=', 1)
        .execute()
    }))

  it('catches a transfer whose postings do not sum to zero', () =>
    corrupted(async (database) => {
      const account = await database.db
        .selectFrom('ledger_accounts')
        .select('id')
        .where('user_id', '=', 1)
        .executeTakeFirstOrThrow()
      const { id } = await database.db
        .insertInto('ledger_transfers')
        .values({ kind: 'test', memo: '', created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow()
      // Postings and balance agree, so only the transfer's own sum (and the total) is off.
      await database.db
        .insertInto('ledger_postings')
        .values({ transfer_id: id, account_id: account.id, amount: 7 })
        .execute()
      await database.db
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', 7) }))
        .where('id', '=', account.id)
        .execute()
    }))
})
