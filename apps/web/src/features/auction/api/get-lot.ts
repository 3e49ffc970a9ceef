import { queryOptions, replaceEqualDeep, useQuery } from '@tanstack/react-query'
import type { LotDetail } from '@numisma/contracts/catalog'
import {
  firstScreenData,
  firstScreenUpdatedAt,
  request,
  type RequestOptions,
} from '../../../lib/api-client'
import { lazySchema } from '../../../lib/lazy-schema'

const lotSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => m.LotDetailSchema),
)

/** GET /auction/{id}: one lot with its live state. */
function lotCall(id: number): RequestOptions<LotDetail> {
  return {
    path: `/auction/${id}`,
    defaultError: 'GET_ITEM_INFO_FAILED',
    schema: lotSchema,
  }
}

export function getLot(id: number): Promise<LotDetail> {
  return request(lotCall(id))
}

/**
 * Which of two answers for the same lot the page keeps: the newer by bid count (counts only grow).
 * A refetch straight after a push or after my own bid may land on a server instance that has not
 * yet dropped its cached copy (ADR 033): it would show a lower count and price than the page
 * already had, so it is ignored; the next push or refetch brings the rest. Equal counts take the
 * new answer (a close, my own fields).
 */
export function newerLot(
  cached: LotDetail | undefined,
  incoming: LotDetail,
): LotDetail | undefined {
  if (cached !== undefined && cached.id === incoming.id && incoming.bidCount < cached.bidCount) {
    return cached
  }
  return incoming
}

export function getLotQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['auction', id],
    queryFn: () => getLot(id),
    initialData: firstScreenData(lotCall(id)),
    initialDataUpdatedAt: firstScreenUpdatedAt,
    // The price moves while the page is open; pushes and their refetches keep it current.
    staleTime: 5_000,
    // Applies to refetches and to setQueryData alike.
    structuralSharing: (cached: unknown, incoming: unknown) =>
      replaceEqualDeep(cached, newerLot(cached as LotDetail | undefined, incoming as LotDetail)),
  })
}

export function useLot(id: number | undefined) {
  return useQuery({ ...getLotQueryOptions(id ?? 0), enabled: id !== undefined })
}
