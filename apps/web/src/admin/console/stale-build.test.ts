import { describe, expect, it } from 'vitest'
import { isStaleBuild } from './stale-build'

describe('isStaleBuild', () => {
  it('knows each browser’s words for a chunk that is gone', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://x/admin/assets/a-1.js',
      'Importing a module script failed.',
      'error loading dynamically imported module: http://x/a.js',
      'Unable to preload CSS for http://x/assets/buyer-cell-D_vPslk6.css',
    ])
      expect(isStaleBuild(new Error(message))).toBe(true)
  })

  it('leaves other errors to be shown as they are', () => {
    expect(isStaleBuild(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      false,
    )
  })
})
