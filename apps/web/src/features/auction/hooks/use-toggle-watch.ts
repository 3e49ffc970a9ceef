import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import type { WatchState } from '@numisma/contracts/bidding'
import { USER_STATISTICS_KEY } from '../../../lib/orders/query-keys'
import { getWatchStateQueryOptions } from '../api/get-watch-state'
import { getWatchedLotsQueryOptions } from '../api/get-watched-lots'
import { unwatchLot } from '../api/unwatch-lot'
import { watchLot } from '../api/watch-lot'

/** Watch or unwatch a lot, with the cache it owns: the lot's heart and the watchlist. */
export function toggleWatchMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({ lotId, watch }: { lotId: number; watch: boolean }) =>
      watch ? watchLot(lotId) : unwatchLot(lotId),
    onSuccess: (result, { lotId }) => {
      queryClient.setQueryData(getWatchStateQueryOptions(lotId).queryKey, result.watching)
      // Awaited: the watchlist is fresh by the time the caller's own onSuccess runs. The user
      // centre's watch counter moves too.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: getWatchedLotsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])
    },
  })
}

/**
 * Watch or unwatch a lot; the heart changes only once the server said 2xx (spec §4). `onDone`
 * (the toast) runs after the cache work, from the mutation itself: callbacks given to `mutate()`
 * are dropped when the button unmounts before the answer, as the one that watches on return from
 * sign-in does (its page is replaced by the same page without the intent in its URL).
 */
export function useToggleWatch(onDone?: (result: WatchState) => void) {
  const options = toggleWatchMutationOptions(useQueryClient())
  return useMutation({
    ...options,
    onSuccess: async (...args: Parameters<NonNullable<typeof options.onSuccess>>) => {
      await options.onSuccess?.(...args)
      onDone?.(args[0])
    },
  })
}
