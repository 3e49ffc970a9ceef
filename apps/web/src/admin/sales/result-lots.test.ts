import { resultOutcomeText } from '@numisma/contracts/staff-sales'
import { describe, expect, it } from 'vitest'
import { shownBuyer } from './result-lots'

const alice = { userId: 9, mobile: '138****8000', display: '藏友' }

describe('resultOutcomeText', () => {
  it('says why a lot went unsold: the reserve it missed, or no bid', () => {
    expect(
      resultOutcomeText({
        status: 'unsold',
        unsoldReason: 'reserve_not_met',
        reservePrice: 500_000,
      }),
    ).toBe('流拍（未达保留价 ¥5,000.00）')
    expect(
      resultOutcomeText({ status: 'unsold', unsoldReason: 'no_bids', reservePrice: null }),
    ).toBe('流拍（无人出价）')
    expect(resultOutcomeText({ status: 'unsold', unsoldReason: null, reservePrice: null })).toBe(
      '流拍',
    )
    expect(resultOutcomeText({ status: 'sold', unsoldReason: null, reservePrice: 500_000 })).toBe(
      '成交',
    )
  })
})

describe('shownBuyer', () => {
  it('names the buyer of a sold lot and the highest bidder of one below its reserve', () => {
    expect(shownBuyer({ buyer: alice, highestBidder: alice, unsoldReason: null })).toEqual({
      buyer: alice,
      role: 'buyer',
    })
    expect(
      shownBuyer({ buyer: null, highestBidder: alice, unsoldReason: 'reserve_not_met' }),
    ).toEqual({ buyer: alice, role: 'highestBidder' })
  })

  it('names nobody for a lot still running or never bid on', () => {
    expect(shownBuyer({ buyer: null, highestBidder: alice, unsoldReason: null })).toBeNull()
    expect(shownBuyer({ buyer: null, highestBidder: null, unsoldReason: 'no_bids' })).toBeNull()
  })
})
