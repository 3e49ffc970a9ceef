import { sql } from 'kysely'
import { expect } from 'vitest'
import type { Database } from '../../src/platform/db'

/**
 * The ledger's invariants (DESIGN §6), checked over the whole database: the accounts sum to zero,
 * each account's balance is the sum of its postings, every transfer is balanced (and has at least
 * two postings), and no user's account is negative. Call it after every money-moving test, on both
 * databases. On failure it names the offending accounts or transfers.
 */
export async function expectLedgerSound(database: Database): Promise<void> {
  const db = database.db

  const total = await db
    .selectFrom('ledger_accounts')
    .select((eb) => eb.fn.sum<number | string | null>('balance').as('sum'))
    .executeTakeFirstOrThrow()
  expect(Number(total.sum ?? 0), 'sum over all ledger accounts').toBe(0)

  // PostgreSQL sums bigint columns to numeric (a string); coalesce keeps an account without
  // postings at 0 rather than null.
  const drifted = await db
    .selectFrom('ledger_accounts as a')
    .leftJoin('ledger_postings as p', 'p.account_id', 'a.id')
    .select([
      'a.id',
      'a.user_id',
      'a.kind',
      'a.balance',
      sql<number | string>`coalesce(sum(p.amount), 0)`.as('posted'),
    ])
    .groupBy(['a.id', 'a.user_id', 'a.kind', 'a.balance'])
    .execute()
  const mismatched = drifted
    .map((a) => ({ ...a, posted: Number(a.posted) }))
    .filter((a) => a.balance !== a.posted)
  expect(mismatched, 'accounts whose balance is not the sum of their postings').toEqual([])

  const unbalanced = await db
    .selectFrom('ledger_transfers as t')
    .leftJoin('ledger_postings as p', 'p.transfer_id', 't.id')
    .select([
      't.id',
      't.kind',
      sql<number | string>`coalesce(sum(p.amount), 0)`.as('sum'),
      sql<number | string>`count(p.id)`.as('postings'),
    ])
    .groupBy(['t.id', 't.kind'])
    .execute()
  const broken = unbalanced
    .map((t) => ({ ...t, sum: Number(t.sum), postings: Number(t.postings) }))
    .filter((t) => t.sum !== 0 || t.postings < 2)
  expect(broken, 'transfers that do not sum to zero or have fewer than two postings').toEqual([])

  const negative = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'user_id', 'kind', 'balance'])
    .where('user_id', '<>', 0)
    .where('balance', '<', 0)
    .execute()
  expect(negative, 'user accounts below zero').toEqual([])
}
