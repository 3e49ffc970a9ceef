import { describe, expect, it } from 'vitest'
import { defaultLikeTab, parseLikeTab } from './like-tab'

const lot = { id: 1 }
const item = { productNo: 'M100001' }

describe('the tab /myLike opens on without a tab in the link', () => {
  it('is the mall’s when only mall items are watched', () => {
    expect(defaultLikeTab([], [item])).toBe('mall')
  })

  it('is the lots’ when lots are watched, or nothing is', () => {
    expect(defaultLikeTab([lot], [item])).toBe('lots')
    expect(defaultLikeTab([lot], [])).toBe('lots')
    expect(defaultLikeTab([], [])).toBe('lots')
  })

  it('waits for both lists', () => {
    expect(defaultLikeTab(undefined, [item])).toBeUndefined()
    expect(defaultLikeTab([], undefined)).toBeUndefined()
  })

  it('is the lots’ when a list failed (its tab says so and offers a retry)', () => {
    expect(defaultLikeTab('failed', [item])).toBe('lots')
    expect(defaultLikeTab([], 'failed')).toBe('lots')
  })
})

describe('a tab named in the link', () => {
  it('is taken when it is one of the tabs', () => {
    expect(parseLikeTab('mall')).toBe('mall')
    expect(parseLikeTab('lots')).toBe('lots')
    expect(parseLikeTab('bids')).toBeUndefined()
    expect(parseLikeTab(null)).toBeUndefined()
  })
})
