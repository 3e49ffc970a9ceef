import type { LiveView } from '@numisma/contracts/staff-sales'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { inBackground } from '../../lib/background'
import { createPushManager, pushSocketUrl } from '../../lib/push'
import { browserSocket } from '../../lib/reconnecting-socket'
import { applyLotUpdate, lotsToFollow } from './live-lots'
import { liveKey } from './queries'

/** After a burst of bids the view is read again once, for the leaders' ids and mobiles. */
const REREAD_AFTER_MS = 1_500

/**
 * Follows a special's open lots on the shop's push socket (`/svc/push/ws` on this origin, the
 * socket's own origin rule admits the console's page): each lot update lands in the cached live
 * view at once, and the view is read again shortly after for what the socket does not carry.
 * Returns whether the socket is open.
 */
export function useLiveSale(specialId: number | null, view: LiveView | undefined): boolean {
  const queryClient = useQueryClient()
  const [connected, setConnected] = useState(false)
  const follow = useMemo(() => (view ? lotsToFollow(view) : []), [view])
  const followKey = follow.join(',')

  useEffect(() => {
    if (specialId === null || followKey === '') return
    const lotIds = followKey.split(',').map(Number)
    const manager = createPushManager({
      url: () => pushSocketUrl('/svc/push', window.location),
      createSocket: (url) => {
        const ws = new WebSocket(url)
        ws.addEventListener('open', () => setConnected(true))
        ws.addEventListener('close', () => setConnected(false))
        return browserSocket(ws)
      },
      setTimer: (fn, ms) => window.setTimeout(fn, ms),
      clearTimer: (handle) => window.clearTimeout(handle as number),
    })
    let reread: number | undefined
    const release = manager.watchLots(lotIds, (update) => {
      queryClient.setQueryData<LiveView & { offset: number }>(liveKey(specialId), (current) =>
        current ? applyLotUpdate(current, update) : current,
      )
      window.clearTimeout(reread)
      reread = window.setTimeout(
        () => inBackground(queryClient.invalidateQueries({ queryKey: liveKey(specialId) })),
        REREAD_AFTER_MS,
      )
    })
    return () => {
      window.clearTimeout(reread)
      release()
      setConnected(false)
    }
  }, [specialId, followKey, queryClient])

  return connected
}
