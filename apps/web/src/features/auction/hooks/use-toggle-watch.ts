import {
  mutationOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
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

/** Watch or unwatch a lot; the heart changes only once the server said 2xx (spec §4). */
export function useToggleWatch() {
  return useMutation(toggleWatchMutationOptions(useQueryClient()))
}
