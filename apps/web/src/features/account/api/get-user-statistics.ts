import { USER_STATISTICS_KEY } from '../../../lib/orders/query-keys'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { UserStatisticsSchema, type UserStatistics } from '@numisma/contracts/user'
import { request } from '../../../lib/api-client'

export function getUserStatistics(): Promise<UserStatistics> {
  return request({
    path: '/user/@statistics',
    defaultError: 'GET_USER_FAILED',
    schema: UserStatisticsSchema,
  })
}

export function userStatisticsQueryOptions() {
  return queryOptions({ queryKey: USER_STATISTICS_KEY, queryFn: getUserStatistics })
}

export function useUserStatistics() {
  return useQuery(userStatisticsQueryOptions())
}
