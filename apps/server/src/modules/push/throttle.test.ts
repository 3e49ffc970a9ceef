import { describe, expect, it } from 'vitest'
import { LogThrottle } from './throttle'

describe('LogThrottle', () => {
  it('lets the first event of a key through, then one per interval with the count left out', () => {
    let now = 0
    const throttle = new LogThrottle(60_000, () => now)
    expect(throttle.take('429:10.0.0.1')).toBe(0)
    expect(throttle.take('429:10.0.0.1')).toBeNull()
    expect(throttle.take('429:10.0.0.1')).toBeNull()
    // Another key is counted on its own.
    expect(throttle.take('429:10.0.0.2')).toBe(0)
    now = 59_999
    expect(throttle.take('429:10.0.0.1')).toBeNull()
    now = 60_000
    expect(throttle.take('429:10.0.0.1')).toBe(3)
    expect(throttle.take('429:10.0.0.1')).toBeNull()
    // 10.0.0.2 was quiet for a minute and forgotten: it logs again, with nothing left out.
    now = 200_000
    expect(throttle.take('429:10.0.0.2')).toBe(0)
  })
})
