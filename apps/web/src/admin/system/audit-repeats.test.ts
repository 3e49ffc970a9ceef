import type { AuditEntry } from '@numisma/contracts/staff'
import { describe, expect, it } from 'vitest'
import { repeatedCalls } from './audit-repeats'

let seq = 0
const line = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: ++seq,
  staffId: 1,
  username: 'li.cashier',
  method: 'POST',
  route: '/svc/main/admin/users/:userId/deposit',
  action: 'Credit a deposit',
  target: null,
  params: {},
  body: {},
  before: null,
  after: null,
  idempotencyKey: 'key-0001',
  statusCode: 200,
  errorCode: null,
  at: new Date(0).toISOString(),
  ...overrides,
})

describe('repeatedCalls', () => {
  it('marks the later lines of an accepted call sent again with its key', () => {
    const first = line()
    const retry = line()
    const again = line()
    expect([...repeatedCalls([again, retry, first])].sort()).toEqual([retry.id, again.id].sort())
  })

  it('does not mark a call after a refused one, another route, staff member or key, or no key', () => {
    const refused = line({ statusCode: 409, errorCode: 'BALANCE_LOW' })
    const afterRefusal = line()
    const others = [
      line({ route: '/svc/main/admin/users/:userId/balance' }),
      line({ staffId: 2 }),
      line({ idempotencyKey: 'key-0002' }),
      line({ idempotencyKey: null }),
      line({ idempotencyKey: null }),
    ]
    expect(repeatedCalls([...others.reverse(), afterRefusal, refused]).size).toBe(0)
  })
})
