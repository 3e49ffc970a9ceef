import { describe, expect, it } from 'vitest'
import { clearWxBind, readWxBind, storeWxBind, WX_BIND_KEY, wxBindUrl } from './wx-bind-handoff'

function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const map = new Map<string, string>()
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  }
}

describe('binding handoff', () => {
  it('carries the token and greeting from the callback to the sign-in app, once', () => {
    const s = storage()
    const handoff = { bindToken: 't0k', nickname: '阿泉', avatar: 'https://img.example/a.png' }
    storeWxBind(s, handoff)
    expect(readWxBind(s)).toEqual(handoff)
    clearWxBind(s)
    expect(readWxBind(s)).toBeUndefined()
  })

  it('ignores what is not a handoff', () => {
    const s = storage()
    s.setItem(WX_BIND_KEY, '{not json')
    expect(readWxBind(s)).toBeUndefined()
    s.setItem(WX_BIND_KEY, JSON.stringify({ bindToken: '', nickname: 'x', avatar: '' }))
    expect(readWxBind(s)).toBeUndefined()
  })

  it('keeps the token out of the URL', () => {
    expect(wxBindUrl('/myOrder?tab=pay')).toBe('/passport?redirect=%2FmyOrder%3Ftab%3Dpay&bind=1')
  })
})
