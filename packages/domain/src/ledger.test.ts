import { describe, expect, it } from 'vitest'
import { handlingFee } from './fees'
import { type AccountView, checkTransfer } from './ledger'

const accounts: AccountView[] = [
  { id: 1, kind: 'platform_clearing', balance: 0 },
  { id: 2, kind: 'deposit', balance: 500 },
  { id: 3, kind: 'balance', balance: 0 },
]

describe('ledger transfers', () => {
  it('accepts a balanced transfer that leaves user accounts non-negative', () => {
    expect(
      checkTransfer(
        [
          { accountId: 1, amount: -1000 },
          { accountId: 2, amount: 1000 },
        ],
        accounts,
      ),
    ).toBeNull()
    expect(
      checkTransfer(
        [
          { accountId: 2, amount: -500 },
          { accountId: 3, amount: 500 },
        ],
        accounts,
      ),
    ).toBeNull()
  })

  it('refuses unbalanced, empty, fractional and overdrawing transfers', () => {
    expect(
      checkTransfer(
        [
          { accountId: 1, amount: -1 },
          { accountId: 2, amount: 2 },
        ],
        accounts,
      ),
    ).toBe('UNBALANCED')
    expect(checkTransfer([{ accountId: 2, amount: 0 }], accounts)).toBe('EMPTY')
    expect(
      checkTransfer(
        [
          { accountId: 1, amount: -0.5 },
          { accountId: 2, amount: 0.5 },
        ],
        accounts,
      ),
    ).toBe('NOT_INTEGER')
    expect(
      checkTransfer(
        [
          { accountId: 2, amount: -501 },
          { accountId: 3, amount: 501 },
        ],
        accounts,
      ),
    ).toBe('OVERDRAWN')
  })
})

describe('handling fee', () => {
  it('is 10% rounded up to the fen', () => {
    expect(handlingFee(100_000)).toBe(10_000)
    expect(handlingFee(105)).toBe(11)
    expect(handlingFee(0)).toBe(0)
  })
})
