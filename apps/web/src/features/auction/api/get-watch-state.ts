import { queryOptions, useQuery } from '@tanstack/react-query'
import type { WatchState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'
import { lazySchema } from '../../../lib/lazy-schema'

const watchStatesSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => listOf(m.WatchStateSchema)),
)

/** GET /auction/{ids}/@attention?userId=: whether the caller watches each lot. */
export function getWatchState(lotIds: readonly number[], userId: string): Promise<WatchState[]> {
  return request({
    path: `/auction/${lotIds.join(',')}/@attention`,
    query: { userId },
    defaultError: 'GET_FOLLOW_INFO_FAILED',
    schema: watchStatesSchema,
  })
}

export function getWatchStateQueryOptions(lotId: number) {
  return queryOptions({
    queryKey: ['watch', 'state', lotId],
    queryFn: async () => {
      const userId = readSession()?.userId ?? ''
      const [state] = await getWatchState([lotId], userId)
      return state?.watching ?? false
    },
  })
}

/** Whether the signed-in user watches a lot; not asked while signed out. */
export function useWatchState(lotId: number, signedIn: boolean) {
  return useQuery({ ...getWatchStateQueryOptions(lotId), enabled: signedIn })
}
