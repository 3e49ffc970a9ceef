import { describe, expect, it, vi } from 'vitest'
import { isLazySchema, lazySchema, loadSchema, type Schema } from './lazy-schema'
import { sharedLoad } from './shared-load'

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

  it('loads what every schema builds on first, once for all of them; a failed one again', async () => {
    const order: string[] = []
    const base = vi
      .fn(() => Promise.resolve(order.push('base')).then(() => undefined))
      .mockRejectedValueOnce(new Error('offline'))
    const shared = sharedLoad(base)
    const first = lazySchema(() => Promise.resolve(order.push('first')).then(() => NUMBER), shared)
    const second = lazySchema(
      () => Promise.resolve(order.push('second')).then(() => NUMBER),
      shared,
    )
    await expect(first.load()).rejects.toThrow('offline')
    await expect(first.load()).resolves.toBe(NUMBER)
    await expect(second.load()).resolves.toBe(NUMBER)
    expect(order).toEqual(['base', 'first', 'second'])
    expect(base).toHaveBeenCalledTimes(2)
  })

  it('the shop builds on zod and the contracts’ shared schemas', async () => {
    const schema = lazySchema(() =>
      import('@numisma/contracts/api').then((m) => m.IdSchema as Schema<number>),
    )
    await expect(schema.load().then((s) => s.parse(7))).resolves.toBe(7)
  })

  it('is told apart from a schema, and loadSchema gives either as a schema', async () => {
    const lazy = lazySchema(() => Promise.resolve(NUMBER))
    expect(isLazySchema(lazy)).toBe(true)
    expect(isLazySchema(NUMBER)).toBe(false)
    await expect(loadSchema(lazy)).resolves.toBe(NUMBER)
    await expect(loadSchema(NUMBER)).resolves.toBe(NUMBER)
  })
})
