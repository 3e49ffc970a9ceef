import type { PushReminder } from '@numisma/contracts/push'
import { describe, expect, it } from 'vitest'
import { addReminder, dismissReminder, MAX_REMINDERS } from './reminder-list'

const buildReminder = (overrides: Partial<PushReminder> = {}): PushReminder => ({
  type: 'reminder',
  lotId: 7,
  title: '民国三年袁世凯像壹圆',
  endsAt: '2026-11-23T12:05:00.000Z',
  ...overrides,
})

describe('addReminder', () => {
  it('puts the newest first and shows a lot once, with its latest end time', () => {
    const first = addReminder([], buildReminder())
    const second = addReminder(first, buildReminder({ lotId: 8 }))
    expect(second.map((r) => r.lotId)).toEqual([8, 7])
    const replayed = addReminder(second, buildReminder({ endsAt: '2026-11-23T12:10:00.000Z' }))
    expect(replayed.map((r) => [r.lotId, r.endsAt])).toEqual([
      [7, '2026-11-23T12:10:00.000Z'],
      [8, '2026-11-23T12:05:00.000Z'],
    ])
  })

  it(`keeps at most ${MAX_REMINDERS}`, () => {
    let shown: PushReminder[] = []
    for (let lotId = 1; lotId <= MAX_REMINDERS + 2; lotId++) {
      shown = addReminder(shown, buildReminder({ lotId }))
    }
    expect(shown.map((r) => r.lotId)).toEqual([5, 4, 3])
  })
})

describe('dismissReminder', () => {
  it('removes only that lot', () => {
    const shown = [buildReminder({ lotId: 1 }), buildReminder({ lotId: 2 })]
    expect(dismissReminder(shown, 1).map((r) => r.lotId)).toEqual([2])
  })
})
