import { describe, expect, it, vi } from 'vitest'
import { isLazySchema, lazySchema, loadSchema } from './lazy-schema'

const NUMBER = {
  parse(value: unknown): number {
    if (typeof value !== 'number') throw new TypeError('expected a number')
    return value
  },
}

describe('lazySchema', () => {
  it('loads once for every call', async () => {
    const load = vi.fn(() => Promise.resolve(NUMBER))
    const schema = lazySchema(load)
    expect(load).not.toHaveBeenCalled()
    const [a, b] = await Promise.all([schema.load(), schema.load()])
    expect(a).toBe(NUMBER)
    expect(b).toBe(NUMBER)
    await schema.load()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('tries again after a load that failed', async () => {
    const load = vi
      .fn<() => Promise<typeof NUMBER>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(NUMBER)
    const schema = lazySchema(load)
    await expect(schema.load()).rejects.toThrow('offline')
    await expect(schema.load()).resolves.toBe(NUMBER)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('is told apart from a schema, and loadSchema gives either as a schema', async () => {
    const lazy = lazySchema(() => Promise.resolve(NUMBER))
    expect(isLazySchema(lazy)).toBe(true)
    expect(isLazySchema(NUMBER)).toBe(false)
    await expect(loadSchema(lazy)).resolves.toBe(NUMBER)
    await expect(loadSchema(NUMBER)).resolves.toBe(NUMBER)
  })
})
