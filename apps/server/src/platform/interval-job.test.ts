import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IntervalJob } from './interval-job'

describe('IntervalJob', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('reports a failed run instead of leaving a rejected promise, and keeps running', async () => {
    const errors: unknown[] = []
    let runs = 0
    const job = new IntervalJob(
      () => (++runs === 1 ? Promise.reject(new Error('db down')) : Promise.resolve()),
      (e) => errors.push(e),
    )
    job.start(100)
    await vi.advanceTimersByTimeAsync(350)
    await job.stop()
    expect(runs).toBe(3)
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).message).toBe('db down')
  })

  it('never overlaps two runs, and stop waits for the one in progress', async () => {
    let active = 0
    let most = 0
    let finished = 0
    const job = new IntervalJob(async () => {
      most = Math.max(most, ++active)
      await new Promise((r) => setTimeout(r, 250))
      active--
      finished++
    }, vi.fn())
    job.start(100)
    await vi.advanceTimersByTimeAsync(120)
    const stopped = job.stop()
    await vi.advanceTimersByTimeAsync(300)
    await stopped
    expect(most).toBe(1)
    expect(finished).toBe(1)
  })
})
