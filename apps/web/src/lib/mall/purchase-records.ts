import { pageSchema } from '@numisma/contracts/api'
import { PurchaseRecordSchema, type PurchaseRecord } from '@numisma/contracts/mall'
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query'
import { requestPage, type Page } from '../api-client'
import { nextPageParam } from '../paging'

export const PURCHASE_RECORDS_PAGE_SIZE = 20
export const PURCHASE_RECORDS_KEY = ['mall', 'records'] as const

/** GET /mallorder/records/{productNo}?page=&pageSize=: who bought the item, newest first. */
export function getPurchaseRecords(
  productNo: string,
  page: number,
  pageSize: number = PURCHASE_RECORDS_PAGE_SIZE,
): Promise<Page<PurchaseRecord>> {
  return requestPage({
    path: `/mallorder/records/${encodeURIComponent(productNo)}`,
    query: { page, pageSize },
    defaultError: 'GET_LIST_FAILED',
    schema: pageSchema(PurchaseRecordSchema),
  })
}

/** Tells rows apart (a record has no id): one buyer's purchases differ in instant or quantity. */
export const purchaseRecordKey = (record: PurchaseRecord) =>
  `${record.at}|${record.buyer}|${record.quantity}|${String(record.mine)}`

/**
 * The loaded pages as one list, newest first. A purchase between two page loads pushes every older
 * row one place down, so the next page starts with a row already shown: shown once.
 */
export function purchaseRows(data: InfiniteData<Page<PurchaseRecord>>): PurchaseRecord[] {
  const seen = new Set<string>()
  return data.pages
    .flatMap((page) => page.data)
    .filter((record) => {
      const key = purchaseRecordKey(record)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
}

export function getPurchaseRecordsQueryOptions(productNo: string) {
  return infiniteQueryOptions({
    queryKey: [...PURCHASE_RECORDS_KEY, productNo],
    queryFn: ({ pageParam }) => getPurchaseRecords(productNo, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
    select: purchaseRows,
  })
}

export function usePurchaseRecords(productNo: string | undefined) {
  return useInfiniteQuery({
    ...getPurchaseRecordsQueryOptions(productNo ?? ''),
    enabled: productNo !== undefined,
  })
}
