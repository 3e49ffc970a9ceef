import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query'
import type { BidRecord } from '@numisma/contracts/bidding'
import { requestPage, type Page } from '../../../lib/api-client'
import { nextPageParam } from '../../../lib/paging'
import { lazySchema } from '../../../lib/lazy-schema'

const bidRecordPageSchema = lazySchema(() =>
  Promise.all([import('@numisma/contracts/api'), import('@numisma/contracts/bidding')]).then(
    ([api, bidding]) => api.pageSchema(bidding.BidRecordSchema),
  ),
)

export const BID_HISTORY_PAGE_SIZE = 50

/** GET /bidding/{id}?page=&pageSize=: one page (from 1) of a lot's bid history, newest first. */
export function getBidHistory(
  lotId: number,
  page: number,
  pageSize: number = BID_HISTORY_PAGE_SIZE,
): Promise<Page<BidRecord>> {
  return requestPage({
    path: `/bidding/${lotId}`,
    query: { page, pageSize },
    defaultError: 'GET_BID_RECORDS_FAILED',
    schema: bidRecordPageSchema,
  })
}

/** Tells rows apart (a record has no id): no two bids share bidder, amount, kind and instant. */
export const bidRecordKey = (record: BidRecord) =>
  `${record.at}|${record.amount}|${record.bidder}|${String(record.auto)}`

/**
 * The loaded pages as one list, newest first. A bid placed between two page loads pushes every
 * older row one place down, so the next page starts with a row already shown: shown once.
 */
export function historyRows(data: InfiniteData<Page<BidRecord>>): BidRecord[] {
  const seen = new Set<string>()
  return data.pages
    .flatMap((page) => page.data)
    .filter((record) => {
      const key = bidRecordKey(record)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}

export function getBidHistoryQueryOptions(lotId: number) {
  return infiniteQueryOptions({
    queryKey: ['bidding', 'history', lotId],
    queryFn: ({ pageParam }) => getBidHistory(lotId, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
    select: historyRows,
    staleTime: 5_000,
  })
}

/** The history loaded so far as one list (`data`), with `fetchNextPage` for older bids. */
export function useBidHistory(lotId: number | undefined) {
  return useInfiniteQuery({
    ...getBidHistoryQueryOptions(lotId ?? 0),
    enabled: lotId !== undefined,
  })
}
