import { queryOptions, useQuery } from '@tanstack/react-query'
import { CompanyBankSchema, type CompanyBank } from '@numisma/contracts/account'
import { request } from '../api-client'
import { listOf } from '../list-of'
import { COMPANY_BANKS_KEY } from './query-keys'

/** GET /user/finance/@companyBanks: the accounts a collector may remit to (spec §7). */
export function getCompanyBanks(): Promise<CompanyBank[]> {
  return request({
    path: '/user/finance/@companyBanks',
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(CompanyBankSchema),
  })
}

export function companyBanksQueryOptions() {
  return queryOptions({
    queryKey: COMPANY_BANKS_KEY,
    queryFn: getCompanyBanks,
    // The company's accounts change rarely; the detail page reads the list it came from.
    staleTime: 5 * 60_000,
  })
}

export function useCompanyBanks() {
  return useQuery(companyBanksQueryOptions())
}
