import type { Page } from './api-client'

/** The next page to ask for, or undefined once every item of `total` has been fetched. */
export function nextPageParam(last: Page<unknown>): number | undefined {
  if (last.data.length === 0) return undefined
  return last.page * last.pageSize < last.total ? last.page + 1 : undefined
}

/** fetchNextPage resolves even when the page failed; InfiniteScroll needs a rejection to retry. */
export async function fetchNextOrThrow(
  fetchNextPage: () => Promise<{ isError: boolean; error: unknown }>,
): Promise<void> {
  const result = await fetchNextPage()
  if (result.isError) throw result.error instanceof Error ? result.error : new Error('load failed')
}
