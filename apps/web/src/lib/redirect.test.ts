import { describe, expect, it } from 'vitest'
import { safeRedirect } from './redirect'

describe('safeRedirect', () => {
  it('keeps same-origin paths', () => {
    expect(safeRedirect('/ucenter')).toBe('/ucenter')
    expect(safeRedirect('/myOrder?tab=pay#x')).toBe('/myOrder?tab=pay#x')
  })

  it('falls back to / for anything that could leave the site', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'ucenter',
      '/\tx',
    ]) {
      expect(safeRedirect(bad)).toBe('/')
    }
  })

  it('never loops back to the sign-in page', () => {
    expect(safeRedirect('/passport?redirect=%2F')).toBe('/')
    expect(safeRedirect('/passport.html')).toBe('/')
  })
})
