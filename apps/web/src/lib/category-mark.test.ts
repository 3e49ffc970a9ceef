import { describe, expect, it } from 'vitest'
import { categoryMark } from './category-mark'

describe('categoryMark', () => {
  it('maps an icon keyword to its mark and picture style', () => {
    expect(categoryMark({ icon: 'banknote', name: '纸币' })).toEqual({
      mark: '钞',
      style: 'banknote',
    })
  })

  it('shows a short Chinese icon as it is, styled when it is a known mark', () => {
    expect(categoryMark({ icon: '古', name: '古钱币' })).toEqual({ mark: '古', style: 'ancient' })
    expect(categoryMark({ icon: '银', name: '银元' })).toEqual({ mark: '银', style: 'default' })
  })

  it('falls back to the first character of the name for a long unknown icon', () => {
    expect(categoryMark({ icon: 'something-else', name: '铜元' })).toEqual({
      mark: '铜',
      style: 'default',
    })
  })
})
