import { describe, expect, it } from 'vitest'
import {
  countdownPhase,
  countdownRemaining,
  formatCountdown,
  isUrgent,
  splitDuration,
} from './countdown'

const item = { startsAt: '2026-11-21T10:00:00.000Z', endsAt: '2026-11-21T12:00:00.000Z' }
const at = (iso: string): number => Date.parse(iso)

describe('countdownPhase', () => {
  it('is upcoming before the start, running until the end, ended after', () => {
    expect(countdownPhase(item, at('2026-11-21T09:59:59.999Z'))).toBe('upcoming')
    expect(countdownPhase(item, at('2026-11-21T10:00:00.000Z'))).toBe('running')
    expect(countdownPhase(item, at('2026-11-21T11:59:59.999Z'))).toBe('running')
    expect(countdownPhase(item, at('2026-11-21T12:00:00.000Z'))).toBe('ended')
  })

  it('is ended when the server already closed the item, whatever the clock says', () => {
    expect(countdownPhase(item, at('2026-11-21T11:00:00.000Z'), true)).toBe('ended')
  })
})

describe('countdownRemaining', () => {
  it('counts to the start while upcoming and to the end while running', () => {
    const before = at('2026-11-21T09:00:00.000Z')
    expect(countdownRemaining(item, before, 'upcoming')).toBe(3_600_000)
    const during = at('2026-11-21T11:30:00.000Z')
    expect(countdownRemaining(item, during, 'running')).toBe(1_800_000)
    expect(countdownRemaining(item, during, 'ended')).toBe(0)
  })
})

describe('formatCountdown', () => {
  it('shows hh:mm:ss under a day', () => {
    expect(formatCountdown(0)).toBe('00:00:00')
    expect(formatCountdown(59_000)).toBe('00:00:59')
    expect(formatCountdown((3 * 3600 + 12 * 60 + 45) * 1000)).toBe('03:12:45')
  })

  it('rounds partial seconds up so the last second is still shown', () => {
    expect(formatCountdown(1)).toBe('00:00:01')
    expect(formatCountdown(1_001)).toBe('00:00:02')
  })

  it('puts days first, in the locale', () => {
    const ms = (2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000
    expect(formatCountdown(ms)).toBe('2天 03:04:05')
    expect(formatCountdown(ms, 'en')).toBe('2d 03:04:05')
  })

  it('never goes negative', () => {
    expect(formatCountdown(-5000)).toBe('00:00:00')
    expect(splitDuration(-1)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 })
  })
})

describe('isUrgent', () => {
  it('is true only inside the last five minutes', () => {
    expect(isUrgent(5 * 60_000)).toBe(true)
    expect(isUrgent(5 * 60_000 + 1)).toBe(false)
    expect(isUrgent(0)).toBe(false)
  })
})
