import { describe, expect, it } from 'vitest'
import { oneAtATime } from './one-at-a-time'

/** A task that stays pending until the test settles it. */
function pendingTask() {
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined
  let calls = 0
  const task = () => {
    calls += 1
    return new Promise<void>((resolve, reject) => {
      settle = { resolve, reject }
    })
  }
  return { task, calls: () => calls, settle: () => settle! }
}

describe('oneAtATime', () => {
  it('drops a second tap while the first is unanswered (one coupon for a double tap)', async () => {
    const running = { current: false }
    const receive = pendingTask()
    const first = oneAtATime(running, receive.task)
    const second = oneAtATime(running, receive.task)
    expect(await second).toBe(false)
    expect(receive.calls()).toBe(1)
    receive.settle().resolve()
    expect(await first).toBe(true)
    expect(running.current).toBe(false)
  })

  it('runs again once the first is answered (another coupon on purpose)', async () => {
    const running = { current: false }
    const receive = pendingTask()
    const first = oneAtATime(running, receive.task)
    receive.settle().resolve()
    await first
    const again = oneAtATime(running, receive.task)
    receive.settle().resolve()
    expect(await again).toBe(true)
    expect(receive.calls()).toBe(2)
  })

  it('frees the flag when the task fails, and passes the failure on', async () => {
    const running = { current: false }
    const receive = pendingTask()
    const first = oneAtATime(running, receive.task)
    receive.settle().reject(new Error('COUPON_GONE'))
    await expect(first).rejects.toThrow('COUPON_GONE')
    expect(running.current).toBe(false)
  })
})
