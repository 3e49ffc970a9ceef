import { useMutation, useQueryClient } from '@tanstack/react-query'
import { getWatchStateQueryOptions } from '../api/get-watch-state'
import { getWatchedLotsQueryOptions } from '../api/get-watched-lots'
import { unwatchLot } from '../api/unwatch-lot'
import { watchLot } from '../api/watch-lot'

/** Watch or unwatch a lot; the heart changes only once the server said 2xx (spec §4). */
export function useToggleWatch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ lotId, watch }: { lotId: number; watch: boolean }) =>
      watch ? watchLot(lotId) : unwatchLot(lotId),
    onSuccess: (result, { lotId, watch }) => {
      queryClient.setQueryData(getWatchStateQueryOptions(lotId).queryKey, result.watching ?? watch)
      void queryClient.invalidateQueries({ queryKey: getWatchedLotsQueryOptions().queryKey })
    },
  })
}
