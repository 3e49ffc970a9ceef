import { describe, expect, it } from 'vitest'

describe('zod-jitless', () => {
  it('makes zod jitless without importing it, whether zod loads before or after', async () => {
    await import('./zod-jitless')
    const { config } = await import('zod')
    expect(config().jitless).toBe(true)
    // zod keeps the object it found: a later schema module sees the same setting.
    expect(config()).toBe((globalThis as { __zod_globalConfig?: object }).__zod_globalConfig)
  })
})
