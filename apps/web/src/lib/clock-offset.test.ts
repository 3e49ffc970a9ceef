import { describe, expect, it } from 'vitest'
import { clockOffset, serverNow } from './clock-offset'

describe('clockOffset', () => {
  it('is server time minus the local midpoint of the round trip', () => {
    // Phone 90 s behind: sent at 1000, answered at 1200, server read at 91_100.
    expect(clockOffset({ sentAt: 1000, receivedAt: 1200, serverTimestamp: 91_100 })).toBe(90_000)
  })

  it('is negative when the phone runs ahead', () => {
    expect(clockOffset({ sentAt: 60_000, receivedAt: 60_000, serverTimestamp: 0 })).toBe(-60_000)
  })

  it('treats a clock that stepped backwards mid-request as an instant round trip', () => {
    expect(clockOffset({ sentAt: 5000, receivedAt: 4000, serverTimestamp: 5000 })).toBe(0)
  })
})

describe('serverNow', () => {
  it('adds the offset to the local clock', () => {
    expect(serverNow(90_000, 1_000)).toBe(91_000)
    expect(serverNow(-500, 1_000)).toBe(500)
  })
})
