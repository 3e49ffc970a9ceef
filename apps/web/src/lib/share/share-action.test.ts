import { describe, expect, it } from 'vitest'
import { copyText, shareActionFor } from './share-action'

describe('shareActionFor', () => {
  it('shares through the app, points at the menu, or copies, by where the page runs', () => {
    expect(shareActionFor('native', true)).toBe('native')
    expect(shareActionFor('messaging', true)).toBe('menu-hint')
    expect(shareActionFor('microblog', true)).toBe('copy')
    expect(shareActionFor('microblog', false)).toBe('copy')
  })

  it("uses the browser's share sheet where there is one, else copies", () => {
    expect(shareActionFor('browser', true)).toBe('system-sheet')
    expect(shareActionFor('browser', false)).toBe('copy')
  })
})

describe('copyText', () => {
  const link = 'https://shop.example/productDetail?id=1'

  it('copies through the Clipboard API when it is there', async () => {
    const written: string[] = []
    const selected: string[] = []
    const ok = await copyText(link, {
      clipboard: { writeText: async (text) => void written.push(text) },
      copyBySelection: (text) => selected.push(text) > 0,
    })
    expect(ok).toBe(true)
    expect(written).toEqual([link])
    expect(selected).toEqual([])
  })

  it('falls back to selecting the text when the API is missing or refuses', async () => {
    const selected: string[] = []
    const bySelection = (text: string) => selected.push(text) > 0
    expect(await copyText(link, { clipboard: undefined, copyBySelection: bySelection })).toBe(true)
    const refusing = { writeText: () => Promise.reject(new Error('NotAllowedError')) }
    expect(await copyText(link, { clipboard: refusing, copyBySelection: bySelection })).toBe(true)
    expect(selected).toEqual([link, link])
    expect(await copyText(link, { clipboard: refusing, copyBySelection: () => false })).toBe(false)
  })
})
