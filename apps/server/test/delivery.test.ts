import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/platform/db'
import { transactor } from '../src/platform/transactions'
import { bookedPlaces, claimSlotPlace, slotKey } from '../src/modules/delivery/slot-counts'
import { testDatabases } from './helpers/databases'

const databases = await testDatabases()

describe.each(databases)('delivery on $name', (target) => {
  let database: Database

  beforeAll(async () => {
    database = await target.open()
  })
  afterAll(async () => {
    await database.close()
  })

  it('claims exactly the capacity of a slot under 30 concurrent claims', async () => {
    const transact = transactor(database)
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        transact((tx) => claimSlotPlace(tx, database.dialect, '2031-01-06', '10:00-12:00', 10)),
      ),
    )
    expect(results.filter(Boolean)).toHaveLength(10)
    const booked = await bookedPlaces(database.db, ['2031-01-06'])
    expect(booked.get(slotKey('2031-01-06', '10:00-12:00'))).toBe(10)
  })
})
