import type { LiveView } from '@numisma/contracts/staff-sales'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { inBackground } from '../../lib/background'
import { createPushManager, pushSocketUrl, type PushManager } from '../../lib/push'
import { browserSocket } from '../../lib/reconnecting-socket'
import { nextConnection, type LiveConnection } from './connection'
import { applyLotUpdate, lotsToFollow } from './live-lots'
import { liveKey } from './queries'

/** After a burst of bids the view is read again once, for the leaders' ids and mobiles. */
const REREAD_AFTER_MS = 1_500

/**
 * Follows a special's open lots on the shop's push socket (`/svc/push/ws` on this origin, the
 * socket's own origin rule admits the console's page): each lot update lands in the cached live
 * view at once, and the view is read again shortly after for what the socket does not carry.
 * One socket per special, kept open while the lots followed change (a lot closing), so the page
 * does not report a lost connection each time. Returns how the connection stands.
 */
export function useLiveSale(specialId: number | null, view: LiveView | undefined): LiveConnection {
  const queryClient = useQueryClient()
  // Kept with the special it belongs to: another special starts again at 'connecting'.
  const [connection, setConnection] = useState<{ specialId: number | null; state: LiveConnection }>(
    { specialId: null, state: 'connecting' },
  )
  const manager = useRef<PushManager | null>(null)
  // Per special, not per set of lots followed: the update that closes the last lot changes that
  // set, and the read after it is what finds the sale closed.
  const reread = useRef<number | undefined>(undefined)
  const follow = useMemo(() => (view ? lotsToFollow(view) : []), [view])
  const followKey = follow.join(',')

  useEffect(() => {
    if (specialId === null) return
    let current = true
    manager.current = createPushManager({
      url: () => pushSocketUrl('/svc/push', window.location),
      createSocket: (url) => {
        const ws = new WebSocket(url)
        const on = (event: 'open' | 'close') => {
          // A socket of a special left behind closes late: it no longer speaks for the page.
          if (!current) return
          setConnection((was) => ({
            specialId,
            state: nextConnection(was.specialId === specialId ? was.state : 'connecting', event),
          }))
        }
        ws.addEventListener('open', () => on('open'))
        ws.addEventListener('close', () => on('close'))
        return browserSocket(ws)
      },
      setTimer: (fn, ms) => window.setTimeout(fn, ms),
      clearTimer: (handle) => window.clearTimeout(handle as number),
    })
    return () => {
      current = false
      manager.current = null
      window.clearTimeout(reread.current)
    }
  }, [specialId])

  useEffect(() => {
    const push = manager.current
    if (specialId === null || followKey === '' || !push) return
    const lotIds = followKey.split(',').map(Number)
    return push.watchLots(lotIds, (update) => {
      queryClient.setQueryData<LiveView & { offset: number }>(liveKey(specialId), (current) =>
        current ? applyLotUpdate(current, update) : current,
      )
      window.clearTimeout(reread.current)
      reread.current = window.setTimeout(
        () => inBackground(queryClient.invalidateQueries({ queryKey: liveKey(specialId) })),
        REREAD_AFTER_MS,
      )
    })
  }, [specialId, followKey, queryClient])

  if (followKey === '') return 'idle'
  return connection.specialId === specialId ? connection.state : 'connecting'
}
