import { describe, expect, it } from 'vitest'
import { ConnectionCounter, TokenBucket } from './limits'

describe('TokenBucket', () => {
  it('allows its burst at once, then its rate, never more than its capacity', () => {
    const bucket = new TokenBucket(3, 2, 0)
    expect([1, 2, 3, 4].map(() => bucket.take(0))).toEqual([true, true, true, false])
    expect(bucket.take(499)).toBe(false)
    expect(bucket.take(500)).toBe(true)
    // A long quiet spell refills to the capacity, not beyond.
    expect([1, 2, 3, 4].map(() => bucket.take(60_000))).toEqual([true, true, true, false])
  })

  it('does not refill when the clock goes back', () => {
    const bucket = new TokenBucket(1, 1, 10_000)
    expect(bucket.take(10_000)).toBe(true)
    expect(bucket.take(5_000)).toBe(false)
  })
})

describe('ConnectionCounter', () => {
  it('caps sockets per address and frees a place when one closes', () => {
    const counter = new ConnectionCounter(2)
    expect(counter.tryAcquire('a')).toBe(true)
    expect(counter.tryAcquire('a')).toBe(true)
    expect(counter.tryAcquire('a')).toBe(false)
    expect(counter.hasRoom('b')).toBe(true)
    counter.release('a')
    expect(counter.hasRoom('a')).toBe(true)
    expect(counter.tryAcquire('a')).toBe(true)
  })
})
