/** fetchNextPage resolves even when the page failed; InfiniteScroll needs a rejection to retry. */
export async function fetchNextOrThrow(
  fetchNextPage: () => Promise<{ isError: boolean; error: unknown }>,
): Promise<void> {
  const result = await fetchNextPage()
  if (result.isError) throw result.error instanceof Error ? result.error : new Error('load failed')
}
