import { describe, expect, it } from 'vitest'
import { inlinedData } from './inlined-data'

const page = (blocks: Record<string, string>) => ({
  getElementById: (id: string) =>
    id in blocks ? ({ textContent: blocks[id] } as unknown as HTMLElement) : null,
})

describe('inlinedData', () => {
  it('parses the JSON data block the server inlined', () => {
    const doc = page({ cfg: '{"env":"production","x":"\\u003c/script>"}' })
    expect(inlinedData('cfg', doc)).toEqual({ env: 'production', x: '</script>' })
  })

  it('is undefined when the block is absent, empty or not JSON', () => {
    expect(inlinedData('cfg', page({}))).toBeUndefined()
    expect(inlinedData('cfg', page({ cfg: '' }))).toBeUndefined()
    expect(inlinedData('cfg', page({ cfg: 'window.x={}' }))).toBeUndefined()
  })
})
