import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LedgerRepository, PLATFORM } from '../src/modules/ledger/repository'
import { LedgerService } from '../src/modules/ledger/service'
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
    expect((await ledger.balances(Number(user.userId))).quota).toBe(20_000)
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
        const quota = await repo.account(tx, Number(user.userId), 'quota')
        const revenue = await repo.account(tx, PLATFORM, 'platform_revenue')
        await repo.transfer(tx, { kind: 'test', memo: '', now: t.clock.now() }, [
          { accountId: quota.id, kind: 'quota', amount: -1_000_000 },
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
})
