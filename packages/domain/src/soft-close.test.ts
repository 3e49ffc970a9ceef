import { describe, expect, it } from 'vitest'
import { type LotState, placeBid } from './bid-engine'
import { DEFAULT_SOFT_CLOSE, endAfterBid, staggeredEnd } from './soft-close'

const SECOND = 1_000
const MINUTE = 60 * SECOND
const END = Date.UTC(2025, 0, 1, 21, 0, 0)

describe('soft close (DESIGN §4)', () => {
  it('defaults to a 5-minute window and a 5-minute extension', () => {
    expect(DEFAULT_SOFT_CLOSE).toEqual({ windowSeconds: 300, extendSeconds: 300 })
  })

  it('a bid in the last 5 minutes moves the end to bid time + 5 minutes', () => {
    expect(endAfterBid(END, END - 2 * MINUTE)).toBe(END + 3 * MINUTE)
    expect(endAfterBid(END, END - 1)).toBe(END - 1 + 5 * MINUTE)
    expect(endAfterBid(END, END - 4 * MINUTE - 59 * SECOND)).toBe(END + SECOND)
  })

  it('a bid before the window does not extend', () => {
    expect(endAfterBid(END, END - 5 * MINUTE - 1)).toBe(END)
    expect(endAfterBid(END, END - 30 * MINUTE)).toBe(END)
    // Made observable with a longer extension: the window's edge is inclusive, one ms earlier is out.
    const rule = { windowSeconds: 300, extendSeconds: 600 }
    expect(endAfterBid(END, END - 5 * MINUTE, rule)).toBe(END + 5 * MINUTE)
    expect(endAfterBid(END, END - 5 * MINUTE - 1, rule)).toBe(END)
  })

  it('never moves the end earlier than the current end', () => {
    const rule = { windowSeconds: 600, extendSeconds: 120 }
    expect(endAfterBid(END, END - 8 * MINUTE, rule)).toBe(END)
    expect(endAfterBid(END, END - MINUTE, rule)).toBe(END + MINUTE)
  })

  it('does nothing for a time at or after the end (such bids are refused)', () => {
    expect(endAfterBid(END, END)).toBe(END)
    expect(endAfterBid(END, END + MINUTE)).toBe(END)
  })

  it('successive late bids keep pushing the end, and a bid at the old end is then accepted', () => {
    let endsAt = END
    endsAt = endAfterBid(endsAt, END - MINUTE) // → END + 4 min
    endsAt = endAfterBid(endsAt, END + 3 * MINUTE) // → END + 8 min
    expect(endsAt).toBe(END + 8 * MINUTE)

    const lot: LotState = {
      startPrice: 10_000,
      reservePrice: null,
      price: null,
      leaderId: null,
      leaderSince: 0,
      startsAt: END - 60 * MINUTE,
      endsAt: END,
      proxies: [],
      bidCount: 0,
    }
    const first = placeBid(lot, { userId: 1, amount: 10_000, proxy: false, at: END - MINUTE })
    if (!first.ok) throw new Error(first.code)
    const extended = { ...first.state, endsAt: endAfterBid(lot.endsAt, END - MINUTE) }
    expect(placeBid(lot, { userId: 2, amount: 11_000, proxy: false, at: END }).ok).toBe(false)
    expect(placeBid(extended, { userId: 2, amount: 11_000, proxy: false, at: END }).ok).toBe(true)
  })
})

describe('staggered close (DESIGN §4)', () => {
  it('lots end one after another in lot order', () => {
    expect(staggeredEnd(END, 1, 30)).toBe(END)
    expect(staggeredEnd(END, 2, 30)).toBe(END + 30 * SECOND)
    expect(staggeredEnd(END, 10, 30)).toBe(END + 9 * 30 * SECOND)
    expect(staggeredEnd(END, 3, 45)).toBe(END + 90 * SECOND)
  })

  it('one lot’s extension does not move the others', () => {
    const ends = [1, 2, 3].map((n) => staggeredEnd(END, n, 30))
    const extended = ends.map((e, i) => (i === 0 ? endAfterBid(e, e - MINUTE) : e))
    expect(extended).toEqual([END + 4 * MINUTE, END + 30 * SECOND, END + 60 * SECOND])
  })
})
