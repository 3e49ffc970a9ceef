import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'

export interface WatchState {
  lotId: number
  watching: boolean
}

const WatchStateSchema = {
  parse(value: unknown): WatchState {
    const row = value as Partial<Record<keyof WatchState, unknown>> | null
    if (
      typeof row !== 'object' ||
      row === null ||
      typeof row.lotId !== 'number' ||
      typeof row.watching !== 'boolean'
    ) {
      throw new TypeError('not a watch state')
    }
    return { lotId: row.lotId, watching: row.watching }
  },
}

/** GET /auction/{ids}/@attention?userId=: whether the caller watches each lot. */
export function getWatchState(lotIds: readonly number[], userId: string): Promise<WatchState[]> {
  return request({
    path: `/auction/${lotIds.join(',')}/@attention`,
    query: { userId },
    defaultError: 'GET_FOLLOW_INFO_FAILED',
    schema: listOf(WatchStateSchema),
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
