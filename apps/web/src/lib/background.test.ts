import { afterEach, describe, expect, it, vi } from 'vitest'
import { inBackground } from './background'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('inBackground', () => {
  it('reports a rejection instead of leaving it unhandled', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const failure = new Error('refetch failed')
    inBackground(Promise.reject(failure))
    await vi.waitFor(() => expect(report).toHaveBeenCalledWith(failure))
  })

  it('accepts what a navigate call returns (nothing, or a promise)', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    inBackground(undefined)
    inBackground(Promise.resolve())
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(report).not.toHaveBeenCalled()
  })
})
