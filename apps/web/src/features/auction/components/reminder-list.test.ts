import { describe, expect, it } from 'vitest'
import { addNotice, dismissNotice, type LotNotice, MAX_NOTICES } from './reminder-list'

const buildNotice = (overrides: Partial<LotNotice> = {}): LotNotice => ({
  kind: 'reminder',
  lotId: 7,
  text: '即将结拍：民国三年袁世凯像壹圆',
  ...overrides,
})

describe('addNotice', () => {
  it('puts the newest first and shows one notice of a kind per lot, the latest', () => {
    const first = addNotice([], buildNotice())
    const second = addNotice(first, buildNotice({ lotId: 8 }))
    expect(second.map((n) => n.lotId)).toEqual([8, 7])
    const replayed = addNotice(second, buildNotice({ text: 'again' }))
    expect(replayed.map((n) => [n.lotId, n.text])).toEqual([
      [7, 'again'],
      [8, '即将结拍：民国三年袁世凯像壹圆'],
    ])
  })

  it('keeps a reminder and an outbid notice for the same lot apart', () => {
    const both = addNotice([buildNotice()], buildNotice({ kind: 'outbid', text: 'outbid' }))
    expect(both.map((n) => n.kind)).toEqual(['outbid', 'reminder'])
  })

  it(`keeps at most ${MAX_NOTICES}`, () => {
    let shown: LotNotice[] = []
    for (let lotId = 1; lotId <= MAX_NOTICES + 2; lotId++) {
      shown = addNotice(shown, buildNotice({ lotId }))
    }
    expect(shown.map((n) => n.lotId)).toEqual([5, 4, 3])
  })
})

describe('dismissNotice', () => {
  it('removes only that notice', () => {
    const shown = [buildNotice({ lotId: 8 }), buildNotice(), buildNotice({ kind: 'outbid' })]
    expect(dismissNotice(shown, buildNotice())).toEqual([
      buildNotice({ lotId: 8 }),
      buildNotice({ kind: 'outbid' }),
    ])
  })
})
