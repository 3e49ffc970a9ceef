import { describe, expect, it } from 'vitest'
import { nextConnection, type LiveConnection } from './connection'

const after = (events: ('open' | 'close')[], from: LiveConnection = 'connecting') =>
  events.reduce(nextConnection, from)

describe('nextConnection', () => {
  it('is connecting, not lost, until the socket has opened once', () => {
    expect(after([])).toBe('connecting')
    expect(after(['close'])).toBe('unreachable')
    expect(after(['close', 'close'])).toBe('unreachable')
    expect(after(['close', 'open'])).toBe('connected')
  })

  it('says lost only after an open connection closed, until it opens again', () => {
    expect(after(['open', 'close'])).toBe('lost')
    expect(after(['open', 'close', 'close'])).toBe('lost')
    expect(after(['open', 'close', 'open'])).toBe('connected')
  })
})
