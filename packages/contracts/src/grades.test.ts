import { describe, expect, it } from 'vitest'
import { gradeName, hasGrade, NAMED_GRADE_CODES } from './grades'

const TABLE: [number[], string][] = [
  [[1, 14, 42], 'very beautiful'],
  [[2], 'complete'],
  [[3], 'upper'],
  [[4], 'mid-upper'],
  [[5], 'middle'],
  [[7], 'poor'],
  [[8], 'repaired'],
  [[11], 'completely unused'],
  [[12, 41], 'unused'],
  [[13], 'nearly unused'],
  [[15, 43], 'beautiful'],
  [[16, 44], 'circulated'],
  [[21], 'flawless'],
  [[22], 'ten'],
  [[23], '9.5'],
  [[24], 'nine'],
  [[25], '8.5'],
  [[26], 'eight'],
  [[27], 'seven'],
  [[28], 'six'],
  [[29], 'five'],
  [[30], 'ordinary'],
  [[51, 52], 'graded coin'],
]

describe('condition grades (spec §3)', () => {
  it.each(TABLE)('codes %j are %s', (codes, name) => {
    for (const code of codes) {
      expect(gradeName(code, 'en')).toBe(name)
      expect(gradeName(String(code), 'en')).toBe(name)
      expect(gradeName(code)).not.toBe('无')
    }
  })

  it('names exactly the codes of the table', () => {
    expect([...NAMED_GRADE_CODES].sort((a, b) => a - b)).toEqual(
      TABLE.flatMap(([codes]) => codes).sort((a, b) => a - b),
    )
  })

  it.each([0, 10, 20, 40, 50, 6, 9, 99, -1, 1.5, '', 'x', null, undefined])(
    '%j is none',
    (code) => {
      expect(gradeName(code, 'en')).toBe('none')
      expect(gradeName(code)).toBe('无')
      expect(hasGrade(code)).toBe(false)
    },
  )

  it('gives Chinese names by default', () => {
    expect(gradeName(22)).toBe('十品')
    expect(gradeName(51)).toBe('评级币')
  })
})
