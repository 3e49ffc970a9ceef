import { describe, expect, it } from 'vitest'
import { readSignInIntent, withoutSignInIntent, withSignInIntent } from './sign-in-intent'

describe('withSignInIntent', () => {
  it('adds the intent after the item parameters, keeping the hash', () => {
    expect(withSignInIntent('/productDetail?id=12#bids', 'watch')).toBe(
      '/productDetail?id=12&after=watch#bids',
    )
  })

  it('replaces an intent already there instead of repeating it', () => {
    expect(withSignInIntent('/productDetail?after=watch&id=3', 'watch')).toBe(
      '/productDetail?after=watch&id=3',
    )
  })
})

describe('readSignInIntent', () => {
  it('reads a known intent', () => {
    expect(readSignInIntent('?id=12&after=watch')).toBe('watch')
  })

  it('ignores an unknown or missing one', () => {
    expect(readSignInIntent('?id=12&after=bid')).toBeUndefined()
    expect(readSignInIntent('?id=12')).toBeUndefined()
    expect(readSignInIntent('')).toBeUndefined()
  })
})

describe('withoutSignInIntent', () => {
  it('removes only the intent', () => {
    expect(withoutSignInIntent('?productNo=M1&after=watch&from=share')).toBe(
      '?productNo=M1&from=share',
    )
  })

  it('leaves an empty search when nothing else is left', () => {
    expect(withoutSignInIntent('?after=watch')).toBe('')
  })
})
