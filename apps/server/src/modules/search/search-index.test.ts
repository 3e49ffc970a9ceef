import { describe, expect, it } from 'vitest'
import { SearchIndex } from './search-index'
import { bigrams, expandTerm, normalise } from './text'

const index = new SearchIndex([
  { id: 1, title: '民国三年袁世凯像壹圆', body: '俗称袁大头' },
  { id: 2, title: '民国十年袁世凯像壹圆', body: '' },
  { id: 3, title: 'PCGS MS63 民国二十三年孙中山像帆船壹圆', body: '船洋' },
  { id: 4, title: '第三套人民币拾圆大团结', body: '' },
  { id: 5, title: '清代乾隆通宝宝源局', body: '帆船图案说明' },
])

describe('search text', () => {
  it('normalises width, case, spaces and punctuation', () => {
    expect(normalise('ＰＣＧＳ  Ms-63，袁大头')).toBe('pcgsms63袁大头')
  })

  it('expands nicknames, keeping qualifiers as separate pieces', () => {
    expect(expandTerm('袁大头')).toContain('袁世凯像')
    expect(expandTerm('三年袁大头')).toContain('三年\u0000袁世凯像')
    expect(expandTerm('')).toEqual([])
  })

  it('makes bigrams', () => {
    expect(bigrams('袁世凯')).toEqual(['袁世', '世凯'])
    expect(bigrams('袁')).toEqual(['袁'])
  })
})

describe('search index', () => {
  it('finds by nickname and by title words', () => {
    expect([...index.search('袁大头').keys()].sort()).toEqual([1, 2])
    expect([...index.search('三年袁大头').keys()]).toEqual([1])
    expect([...index.search('大团结').keys()]).toEqual([4])
  })

  it('weights the title above the body', () => {
    const scores = index.search('帆船')
    expect(scores.get(3)).toBeGreaterThan(scores.get(5)!)
  })

  it('falls back to bigrams only when nothing matches exactly', () => {
    expect([...index.search('孙中山帆船壹圆').keys()]).toEqual([3])
    expect(index.search('比特币').size).toBe(0)
  })

  it('requires every term', () => {
    expect([...index.search('pcgs 船洋').keys()]).toEqual([3])
    expect(index.search('pcgs 大团结').size).toBe(0)
  })
})
