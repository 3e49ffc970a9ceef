import { useEffect, useState } from 'react'
import { formatCountdown, isUrgent } from '../../lib/countdown'
import styles from './countdown.module.css'

/** This browser's clock moved by the server's offset, ticking each second. */
export function useServerNow(offset: number): number {
  const [local, setLocal] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setLocal(Date.now()), 1000)
    return () => window.clearInterval(timer)
  }, [])
  return local + offset
}

/** Time left to a lot's end, red in its last five minutes. */
export function Countdown({ endsAt, now }: { endsAt: string; now: number }) {
  const left = Date.parse(endsAt) - now
  return (
    <span className={isUrgent(left) ? styles.urgent : styles.countdown}>
      {formatCountdown(Math.max(0, left))}
    </span>
  )
}
