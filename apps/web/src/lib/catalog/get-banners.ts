import { queryOptions, useQuery } from '@tanstack/react-query'
import { BannerSchema, type Banner } from '@numisma/contracts/catalog'
import { request } from '../api-client'
import { listOf } from '../list-of'

/** Spec §7: position 0 holds the home banners, 1 the category page's. */
export type BannerPosition = 0 | 1

/** GET /mall/advertis/{position}. */
export function getBanners(position: BannerPosition): Promise<Banner[]> {
  return request({
    path: `/mall/advertis/${position}`,
    defaultError: 'GET_BANNER_FAILED',
    schema: listOf(BannerSchema),
  })
}

export function getBannersQueryOptions(position: BannerPosition) {
  return queryOptions({
    queryKey: ['catalog', 'banners', position],
    queryFn: () => getBanners(position),
  })
}

export function useBanners(position: BannerPosition) {
  return useQuery(getBannersQueryOptions(position))
}
