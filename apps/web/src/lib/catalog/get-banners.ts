import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Banner } from '@numisma/contracts/catalog'
import { firstScreenData, firstScreenUpdatedAt, request, type RequestOptions } from '../api-client'
import { listOf } from '../list-of'
import { lazySchema } from '../lazy-schema'

const bannersSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => listOf(m.BannerSchema)),
)

/** Spec §7: position 0 holds the home banners, 1 the category page's. */
export type BannerPosition = 0 | 1

/** GET /mall/advertis/{position}. */
function bannersCall(position: BannerPosition): RequestOptions<Banner[]> {
  return {
    path: `/mall/advertis/${position}`,
    defaultError: 'GET_BANNER_FAILED',
    schema: bannersSchema,
  }
}

export function getBanners(position: BannerPosition): Promise<Banner[]> {
  return request(bannersCall(position))
}

export function getBannersQueryOptions(position: BannerPosition) {
  return queryOptions({
    queryKey: ['catalog', 'banners', position],
    queryFn: () => getBanners(position),
    initialData: firstScreenData(bannersCall(position)),
    initialDataUpdatedAt: firstScreenUpdatedAt,
  })
}

export function useBanners(position: BannerPosition) {
  return useQuery(getBannersQueryOptions(position))
}
