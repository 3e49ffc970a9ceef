import { useEffect } from 'react'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { RechargeSchema, type Recharge } from '@numisma/contracts/account'
import { request } from '../api-client'
import { inBackground } from '../background'
import { USER_STATISTICS_KEY } from '../orders/query-keys'
import { PAYMENT_POLL_MS } from './get-payment'
import { RECHARGES_KEY } from './query-keys'

/** GET /user/recharge/:id: one of the caller's recharges (another user's answers 404). */
export function getRecharge(rechargeId: number): Promise<Recharge> {
  return request({
    path: `/user/recharge/${rechargeId}`,
    defaultError: 'GET_INFO_FAILED',
    schema: RechargeSchema,
  })
}

/**
 * Back from the cashier, a recharge is asked for again every 2 s while pending, until `pollUntil`
 * (epoch ms): the deposit grows only when the platform's notice reaches the server.
 */
export function rechargeQueryOptions(rechargeId: number, pollUntil: number, now = Date.now) {
  return queryOptions({
    queryKey: [...RECHARGES_KEY, rechargeId],
    queryFn: () => getRecharge(rechargeId),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' && now() < pollUntil ? PAYMENT_POLL_MS : false,
  })
}

/** The recharge, polled while pending; once paid the user centre's figures are read again. */
export function useRecharge(rechargeId: number | undefined, pollUntil: number) {
  const queryClient = useQueryClient()
  const recharge = useQuery({
    ...rechargeQueryOptions(rechargeId ?? 0, pollUntil),
    enabled: rechargeId !== undefined,
  })
  const paid = recharge.data?.status === 'paid'
  useEffect(() => {
    if (paid) inBackground(queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }))
  }, [paid, queryClient])
  return recharge
}
