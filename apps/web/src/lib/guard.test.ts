import { describe, expect, it } from 'vitest'
import { guardFromCookies, guardRoute, signInUrl } from './guard'
import { memoryCookies } from './cookies'

describe('guardRoute', () => {
  const wanted = '/myOrder?tab=pay'

  it('lets anyone into a public route', () => {
    expect(guardRoute({ auth: false, wanted, userId: undefined, agreement: undefined })).toEqual({
      kind: 'allow',
    })
  })

  it('lets a signed-in user who accepted the agreement in', () => {
    expect(guardRoute({ auth: true, wanted, userId: 'u1', agreement: '1' })).toEqual({
      kind: 'allow',
    })
  })

  it('sends a user without a user id to sign in with the wanted URL', () => {
    expect(guardRoute({ auth: true, wanted, userId: undefined, agreement: '1' })).toEqual({
      kind: 'sign-in',
      wanted,
    })
  })

  it('sends a user who has not accepted the agreement to sign in', () => {
    for (const agreement of [undefined, '', '0', 'true']) {
      expect(guardRoute({ auth: true, wanted, userId: 'u1', agreement }).kind).toBe('sign-in')
    }
  })

  it('reads the cookies', () => {
    expect(
      guardFromCookies(true, '/ucenter', memoryCookies({ userId: 'u1', agreement: '1' })).kind,
    ).toBe('allow')
    expect(guardFromCookies(true, '/ucenter', memoryCookies({ agreement: '1' })).kind).toBe(
      'sign-in',
    )
  })
})

describe('signInUrl', () => {
  it('encodes the whole wanted URL', () => {
    expect(signInUrl('/a?b=1&c=2#d')).toBe('/passport?redirect=%2Fa%3Fb%3D1%26c%3D2%23d')
  })
})
