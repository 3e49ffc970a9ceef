import { useEffect } from 'react'
import { useKeepAliveContext } from 'keepalive-for-react'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { LotCard } from '@numisma/contracts/catalog'
import type { PushLot } from '@numisma/contracts/push'
import { inBackground } from '../../../lib/background'
import { pushManager } from '../../../lib/push'
import { getBidHistoryQueryOptions } from '../api/get-bid-history'
import { getLotQueryOptions } from '../api/get-lot'

type LiveFields = Pick<LotCard, 'price' | 'bidCount' | 'endsAt' | 'status'>

/**
 * Whether a push message changes what the cache holds for a lot. The bid count only grows, so a
 * message with a lower count is an older update that arrived late (or a refetch overtook it).
 */
export function isNews(cached: LiveFields | undefined, message: PushLot): boolean {
  if (cached !== undefined && message.bidCount < cached.bidCount) return false
  return (
    cached === undefined ||
    cached.price !== message.price ||
    cached.bidCount !== message.bidCount ||
    cached.endsAt !== message.endsAt ||
    cached.status !== message.status
  )
}

export function mergePush<T extends LiveFields>(item: T, message: PushLot): T {
  return {
    ...item,
    price: message.price,
    bidCount: message.bidCount,
    endsAt: message.endsAt,
    status: message.status,
  }
}

/**
 * Keeps GET /auction/{id} (and the bid history) current from push: price, bid count, end time and
 * status are merged at once so the bar and countdown move without a reload; the lot is then
 * fetched again in the background for what push does not carry (leading, my maximum, reserve).
 */
export function useLotLive(lotId: number | undefined): void {
  const queryClient = useQueryClient()
  // A kept-alive page in the background stops listening; the snapshot sent on subscribing
  // brings it up to date when it is shown again.
  const { active } = useKeepAliveContext()
  useEffect(() => {
    if (lotId === undefined || !active) return
    const lotKey = getLotQueryOptions(lotId).queryKey
    return pushManager().watchLots([lotId], (message) => {
      const cached = queryClient.getQueryData(lotKey)
      if (!isNews(cached, message)) return
      if (cached) queryClient.setQueryData(lotKey, mergePush(cached, message))
      inBackground(queryClient.invalidateQueries({ queryKey: lotKey }))
      inBackground(
        queryClient.invalidateQueries({ queryKey: getBidHistoryQueryOptions(lotId).queryKey }),
      )
    })
  }, [lotId, queryClient, active])
}

/** Keeps the lots of a cached list (watchlist, my bids) current from push. */
type LiveItem = LiveFields & { id: number }

export function useLiveLotList(queryKey: QueryKey, lots: readonly LiveItem[] | undefined): void {
  const queryClient = useQueryClient()
  const ids = (lots ?? []).map((lot) => lot.id).join(',')
  const keyText = JSON.stringify(queryKey)
  const { active } = useKeepAliveContext()
  useEffect(() => {
    if (ids === '' || !active) return
    const key = JSON.parse(keyText) as QueryKey
    return pushManager().watchLots(ids.split(',').map(Number), (message) => {
      queryClient.setQueryData<LiveItem[]>(key, (list) =>
        list?.map((item) =>
          item.id === message.lotId && isNews(item, message) ? mergePush(item, message) : item,
        ),
      )
    })
  }, [ids, keyText, queryClient, active])
}
