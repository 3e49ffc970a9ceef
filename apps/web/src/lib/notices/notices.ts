import {
  NoticesPageSchema,
  NOTICES_PAGE_SIZE_MAX,
  NoticesUnreadSchema,
  type Notice,
  type NoticesPage,
  type NoticesUnread,
} from '@numisma/contracts/notices'
import {
  infiniteQueryOptions,
  mutationOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query'
import { request, requestPage } from '../api-client'
import { USER_STATISTICS_KEY } from '../orders/query-keys'
import { nextPageParam } from '../paging'

export const NOTICES_PAGE_SIZE = 20
export const NOTICES_KEY = ['notices'] as const

/** GET /user/notices?page=&pageSize=: the caller's notices, newest first. */
export function getNotices(page: number, pageSize = NOTICES_PAGE_SIZE): Promise<NoticesPage> {
  return requestPage({
    path: '/user/notices',
    query: { page, pageSize },
    defaultError: 'GET_LIST_FAILED',
    schema: NoticesPageSchema,
  })
}

/**
 * POST /user/notices/read: marks the caller's notices of `ids` read (at most a page's worth per
 * call, as the server takes) and answers how many stay unread.
 */
export function markNoticesRead(ids: readonly number[]): Promise<NoticesUnread> {
  return request({
    method: 'POST',
    path: '/user/notices/read',
    body: { ids },
    defaultError: 'REQUEST_FAILED',
    schema: NoticesUnreadSchema,
    // Reading the inbox works without it; the next visit tries again.
    silent: true,
  })
}

/**
 * The loaded pages as one list, newest first. A notice arriving between two page loads pushes the
 * older ones one place down, so the next page starts with one already shown: shown once.
 */
export function noticeRows(data: InfiniteData<NoticesPage>): Notice[] {
  const seen = new Set<number>()
  return data.pages
    .flatMap((page) => page.data)
    .filter((notice) => {
      if (seen.has(notice.id)) return false
      seen.add(notice.id)
      return true
    })
}

export function noticesQueryOptions() {
  return infiniteQueryOptions({
    queryKey: NOTICES_KEY,
    queryFn: ({ pageParam }) => getNotices(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
    select: noticeRows,
  })
}

/** Fetched afresh on every visit: the inbox is where a reader looks for what is new. */
export function useNotices() {
  return useInfiniteQuery({ ...noticesQueryOptions(), refetchOnMount: 'always' })
}

/** Ids in calls the server accepts (it takes at most a page's worth at once). */
export function chunks(ids: readonly number[], size = NOTICES_PAGE_SIZE_MAX): number[][] {
  const out: number[][] = []
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size))
  return out
}

/**
 * Marking read with the cache it owns: the user centre's badge is refreshed at once. The notices
 * shown keep their unread mark for this visit (the reader sees what was new); the inbox is fetched
 * afresh on the next one.
 */
export function markNoticesReadMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: async (ids: readonly number[]) => {
      let last: NoticesUnread | undefined
      for (const part of chunks(ids)) last = await markNoticesRead(part)
      return last
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
  })
}

export function useMarkNoticesRead() {
  return useMutation(markNoticesReadMutationOptions(useQueryClient()))
}
