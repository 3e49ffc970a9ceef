import { useKeepAliveContext } from 'keepalive-for-react'
import { useServerNow } from '../../../lib/server-clock'

/**
 * Milliseconds left to pay an order by `dueAt`, from server time (never the phone's clock alone),
 * ticking every second while the page is on screen; undefined until the server's time is known.
 */
export function usePayTimeLeft(dueAt: string | null): number | undefined {
  const { active } = useKeepAliveContext()
  const due = dueAt === null ? Number.NaN : Date.parse(dueAt)
  const now = useServerNow(active && !Number.isNaN(due))
  if (now === undefined || Number.isNaN(due)) return undefined
  return Math.max(0, due - now)
}
