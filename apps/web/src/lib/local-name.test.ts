import { describe, expect, it } from 'vitest'
import { localName, localTitle } from './local-name'

describe('localName', () => {
  const coins = { name: '古钱币', nameEn: 'Ancient coins' }

  it('gives the English name in English and the Chinese name in Chinese', () => {
    expect(localName(coins, 'en')).toBe('Ancient coins')
    expect(localName(coins, 'zh')).toBe('古钱币')
  })

  it('falls back to the Chinese name where no English one was entered', () => {
    expect(localName({ name: '侨批', nameEn: '' }, 'en')).toBe('侨批')
    expect(localName({ name: '侨批', nameEn: '  ' }, 'en')).toBe('侨批')
    expect(localName({ name: '侨批' }, 'en')).toBe('侨批')
  })

  it('picks banner titles by the same rule', () => {
    const banner = { title: '周末评级币速拍', titleEn: 'Weekend graded-coin quick sale' }
    expect(localTitle(banner, 'en')).toBe('Weekend graded-coin quick sale')
    expect(localTitle(banner, 'zh')).toBe('周末评级币速拍')
    expect(localTitle({ title: '店庆', titleEn: '' }, 'en')).toBe('店庆')
  })
})
