import { describe, expect, it } from 'vitest'
import { positiveId } from './query-param'

describe('positiveId', () => {
  it('reads positive integer ids', () => {
    expect(positiveId('42')).toBe(42)
  })

  it('refuses anything else', () => {
    for (const value of [
      null,
      undefined,
      '',
      '0',
      '-3',
      '1.5',
      'abc',
      '1e3',
      '99999999999999999',
    ]) {
      expect(positiveId(value)).toBeUndefined()
    }
  })
})
