import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LedgerRepository, PLATFORM } from '../src/modules/ledger/repository'
import { LedgerService } from '../src/modules/ledger/service'
import { depositNaming } from '../src/platform/migrations/0006-deposit-naming'
import { migrationContext } from '../src/platform/migrations/index'
import { writeTransaction } from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

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
