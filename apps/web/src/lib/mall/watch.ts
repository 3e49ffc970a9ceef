import {
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import type { MallWatchState, WatchedMallItem } from '@numisma/contracts/mall'
import { request } from '../api-client'
import { listOf } from '../list-of'
import { USER_STATISTICS_KEY } from '../orders/query-keys'
import { getMallItemQueryOptions } from './get-mall-item'
import { lazySchema } from '../lazy-schema'

const mallWatchStateSchema = lazySchema(() =>
  import('@numisma/contracts/mall').then((m) => m.MallWatchStateSchema),
)
const watchedMallItemsSchema = lazySchema(() =>
  import('@numisma/contracts/mall').then((m) => listOf(m.WatchedMallItemSchema)),
)

/**
 * Watching mall items (spec §7 "Products"). Spec §8 gives the mall's watch calls one default
 * text, 'unfollow failed', for adding and removing alike.
 */
export function watchMallItem(productNo: string): Promise<MallWatchState> {
  return request({
    method: 'POST',
    path: `/mall/attention/${encodeURIComponent(productNo)}`,
    defaultError: 'UNFOLLOW_FAILED',
    schema: mallWatchStateSchema,
  })
}

export function unwatchMallItem(productNo: string): Promise<MallWatchState> {
  return request({
    method: 'POST',
    path: `/mall/cancelAttention/${encodeURIComponent(productNo)}`,
    defaultError: 'UNFOLLOW_FAILED',
    schema: mallWatchStateSchema,
  })
}

/** GET /user/auction/queryUserMallAttentions: the mall items the caller watches. */
export function getWatchedMallItems(): Promise<WatchedMallItem[]> {
  return request({
    path: '/user/auction/queryUserMallAttentions',
    defaultError: 'GET_MALL_FOLLOW_INFO_FAILED',
    schema: watchedMallItemsSchema,
  })
}

export function getWatchedMallItemsQueryOptions() {
  return queryOptions({ queryKey: ['watch', 'mall'], queryFn: getWatchedMallItems })
}

export function useWatchedMallItems() {
  return useQuery(getWatchedMallItemsQueryOptions())
}

/** Watch or unwatch a mall item, with the cache it owns: the item's heart and the watchlist. */
export function toggleMallWatchMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: ({ productNo, watch }: { productNo: string; watch: boolean }) =>
      watch ? watchMallItem(productNo) : unwatchMallItem(productNo),
    onSuccess: (result) => {
      queryClient.setQueryData(getMallItemQueryOptions(result.productNo).queryKey, (item) =>
        item ? { ...item, watched: result.watched } : item,
      )
      // The user centre's watch counter counts mall items too.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: getWatchedMallItemsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])
    },
  })
}

/**
 * The heart changes only once the server said 2xx (spec §4). `onDone` (the toast) runs from the
 * mutation itself, after the cache work: see useToggleWatch for why not from `mutate()`.
 */
export function useToggleMallWatch(onDone?: (result: MallWatchState) => void) {
  const options = toggleMallWatchMutationOptions(useQueryClient())
  return useMutation({
    ...options,
    onSuccess: async (...args: Parameters<NonNullable<typeof options.onSuccess>>) => {
      await options.onSuccess?.(...args)
      onDone?.(args[0])
    },
  })
}
