import { describe, expect, it } from 'vitest'
import { backTarget as backTargetWith } from './back-target'

/** As app/routes marks them (app/passport-app passes its matchRoute). */
const AUTH_PATHS = new Set(['/ucenter', '/myOrder'])
const backTarget = (redirect: string | null) =>
  backTargetWith(redirect, (pathname) => AUTH_PATHS.has(pathname))

describe('backTarget', () => {
  it('goes back to a wanted page anyone may see', () => {
    expect(backTarget('/productDetail?id=7#bids')).toBe('/productDetail?id=7#bids')
    expect(backTarget('/specialDetail?id=3')).toBe('/specialDetail?id=3')
  })

  it('goes home instead of to a page that would ask for the sign-in again', () => {
    expect(backTarget('/ucenter')).toBe('/')
    expect(backTarget('/myOrder?tab=pay')).toBe('/')
  })

  it('goes home without a redirect, or with one off the site', () => {
    expect(backTarget(null)).toBe('/')
    expect(backTarget('https://evil.example/')).toBe('/')
    expect(backTarget('//evil.example/x')).toBe('/')
  })
})
