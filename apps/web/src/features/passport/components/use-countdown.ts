import { useEffect, useState } from 'react'

/** Seconds left of a countdown started with `start(seconds)`; 0 when idle. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [endsAt, setEndsAt] = useState(0)
  const [left, setLeft] = useState(0)

  useEffect(() => {
    if (endsAt === 0) return
    const tick = (): void => {
      const remaining = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000))
      setLeft(remaining)
      if (remaining === 0) setEndsAt(0)
    }
    tick()
    const timer = window.setInterval(tick, 250)
    return () => window.clearInterval(timer)
  }, [endsAt])

  return [left, (seconds) => setEndsAt(Date.now() + seconds * 1000)]
}
