import { queryOptions, useQuery } from '@tanstack/react-query'
import type { SpecialDetail } from '@numisma/contracts/catalog'
import {
  firstScreenData,
  firstScreenUpdatedAt,
  request,
  type RequestOptions,
} from '../../../lib/api-client'
import { lazySchema } from '../../../lib/lazy-schema'

const specialSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => m.SpecialDetailSchema),
)

/** GET /special/{id}: a special with its lots in lot order. */
function specialCall(id: number): RequestOptions<SpecialDetail> {
  return {
    path: `/special/${id}`,
    defaultError: 'GET_SPECIAL_FAILED',
    schema: specialSchema,
  }
}

export function getSpecial(id: number): Promise<SpecialDetail> {
  return request(specialCall(id))
}

export function getSpecialQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['special', id],
    queryFn: () => getSpecial(id),
    initialData: firstScreenData(specialCall(id)),
    initialDataUpdatedAt: firstScreenUpdatedAt,
  })
}

export function useSpecial(id: number | undefined) {
  return useQuery({ ...getSpecialQueryOptions(id ?? 0), enabled: id !== undefined })
}
