import { afterEach, describe, expect, it, vi } from 'vitest'
import { copyText } from './bank-copy'

/** A page as far as copying touches it: the clipboard, the secure flag and a selectable area. */
function fakePage({
  clipboard,
  secure = true,
  execCommand = true,
}: {
  clipboard?: (text: string) => Promise<void>
  secure?: boolean
  execCommand?: boolean | 'throws'
}) {
  const areas: { value: string; selected: boolean; removed: boolean }[] = []
  const copied: string[] = []
  vi.stubGlobal('navigator', clipboard ? { clipboard: { writeText: clipboard } } : {})
  vi.stubGlobal('window', { isSecureContext: secure })
  vi.stubGlobal('document', {
    createElement: () => {
      const area = {
        value: '',
        selected: false,
        removed: false,
        style: { cssText: '' },
        setAttribute: () => undefined,
        select: () => {
          area.selected = true
        },
        setSelectionRange: () => undefined,
        remove: () => {
          area.removed = true
        },
      }
      areas.push(area)
      return area
    },
    body: { appendChild: () => undefined },
    execCommand: () => {
      if (execCommand === 'throws') throw new Error('not allowed')
      const area = areas.at(-1)
      if (execCommand && area?.selected) copied.push(area.value)
      return execCommand
    },
  })
  return { areas, copied }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('copyText', () => {
  it('uses the Clipboard API where the page may', async () => {
    const written: string[] = []
    const page = fakePage({ clipboard: async (text) => void written.push(text) })
    await expect(copyText('0200248909200135678')).resolves.toBe(true)
    expect(written).toEqual(['0200248909200135678'])
    expect(page.areas).toHaveLength(0)
  })

  it('falls back to a selected text area when the clipboard refuses or is absent', async () => {
    const refused = fakePage({ clipboard: () => Promise.reject(new Error('denied')) })
    await expect(copyText('订单号 41')).resolves.toBe(true)
    expect(refused.copied).toEqual(['订单号 41'])
    expect(refused.areas[0]!.removed).toBe(true)

    const insecure = fakePage({ clipboard: async () => undefined, secure: false })
    await expect(copyText('1109273516100020168')).resolves.toBe(true)
    expect(insecure.copied).toEqual(['1109273516100020168'])

    const none = fakePage({})
    await expect(copyText('x')).resolves.toBe(true)
    expect(none.copied).toEqual(['x'])
  })

  it('says so when nothing could copy, and leaves no text area behind', async () => {
    const refused = fakePage({ execCommand: false })
    await expect(copyText('x')).resolves.toBe(false)
    expect(refused.areas[0]!.removed).toBe(true)
    const throws = fakePage({ execCommand: 'throws' })
    await expect(copyText('x')).resolves.toBe(false)
    expect(throws.areas[0]!.removed).toBe(true)
  })
})
