import { queryOptions, useQueries, useQuery } from '@tanstack/react-query'
import { RegionSchema, type Region } from '@numisma/contracts/address'
import { request } from '../api-client'
import { currentLanguage } from '../language'
import { listOf } from '../list-of'
import { REGIONS_KEY } from './query-keys'

/** GET /pub/@country: every country, China first, named in the app's language. */
export function getCountries(): Promise<Region[]> {
  return request({
    path: '/pub/@country',
    defaultError: 'GET_COUNTRY_FAILED',
    schema: listOf(RegionSchema),
  })
}

/** GET /pub/@province?countryId=: China's provinces; none for other countries. */
export function getProvinces(countryId: string): Promise<Region[]> {
  return request({
    path: '/pub/@province',
    query: { countryId },
    defaultError: 'GET_PROVINCE_FAILED',
    schema: listOf(RegionSchema),
  })
}

/** GET /pub/@city?provinceId=: a province's city level (districts for the municipalities). */
export function getCities(provinceId: string): Promise<Region[]> {
  return request({
    path: '/pub/@city',
    query: { provinceId },
    defaultError: 'GET_CITY_FAILED',
    schema: listOf(RegionSchema),
  })
}

// Region data changes with the divisions package, i.e. with a release: kept for the session.
const forever = { staleTime: Infinity, gcTime: Infinity } as const

/** Keyed by the language too: the names come in it. */
export function getCountriesQueryOptions(language = currentLanguage()) {
  return queryOptions({
    queryKey: [...REGIONS_KEY, 'countries', language],
    queryFn: getCountries,
    ...forever,
  })
}

export function getProvincesQueryOptions(countryId: string) {
  return queryOptions({
    queryKey: [...REGIONS_KEY, 'provinces', countryId],
    queryFn: () => getProvinces(countryId),
    ...forever,
  })
}

export function getCitiesQueryOptions(provinceId: string) {
  return queryOptions({
    queryKey: [...REGIONS_KEY, 'cities', provinceId],
    queryFn: () => getCities(provinceId),
    ...forever,
  })
}

export function useCountries() {
  return useQuery(getCountriesQueryOptions())
}

export function useProvinces(countryId: string | undefined) {
  return useQuery({ ...getProvincesQueryOptions(countryId ?? ''), enabled: !!countryId })
}

/** The city lists of several provinces (the one saved and the one being browsed in the picker). */
export function useCitiesOf(provinceIds: readonly string[]): Map<string, Region[] | undefined> {
  const results = useQueries({
    queries: provinceIds.map((id) => getCitiesQueryOptions(id)),
  })
  return new Map(provinceIds.map((id, i) => [id, results[i]?.data]))
}
