import type { SalesSpecial } from '@numisma/contracts/staff-sales'
import { describe, expect, it } from 'vitest'
import { listIsBehind, specialEnd } from './sale-specials'

const special = (overrides: Partial<SalesSpecial> = {}): SalesSpecial => ({
  id: 1,
  title: '周末评级币速拍',
  startsAt: '2026-11-26T08:00:00.000Z',
  endsAt: '2026-11-26T10:00:00.000Z',
  lastLotEndsAt: '2026-11-26T10:05:30.000Z',
  state: 'running',
  lotCount: 12,
  ...overrides,
})

describe('specialEnd', () => {
  it('is the last lot’s close, or the nominal end of a special without lots', () => {
    expect(specialEnd(special())).toBe('2026-11-26T10:05:30.000Z')
    expect(specialEnd(special({ lastLotEndsAt: null }))).toBe('2026-11-26T10:00:00.000Z')
  })
})

describe('listIsBehind', () => {
  it('is behind when the special closed, its end moved, or it is missing', () => {
    const list = [special(), special({ id: 2, state: 'upcoming' })]
    expect(listIsBehind(list, special())).toBe(false)
    expect(listIsBehind(list, special({ state: 'closed' }))).toBe(true)
    expect(listIsBehind(list, special({ lastLotEndsAt: '2026-11-26T10:10:30.000Z' }))).toBe(true)
    expect(listIsBehind(list, special({ id: 3 }))).toBe(true)
  })

  it('says nothing before both are read', () => {
    expect(listIsBehind(undefined, special())).toBe(false)
    expect(listIsBehind([special()], undefined)).toBe(false)
  })
})
