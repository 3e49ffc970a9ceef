import { queryOptions, useQuery } from '@tanstack/react-query'
import { EntrustStateSchema, type ENTRUST_STATES } from '@numisma/contracts/bidding'
import { LotCardSchema, type LotCard } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'

export type EntrustState = (typeof ENTRUST_STATES)[number]

/** One of my proxy bids (委托): the lot, my maximum (fen) and where it stands. */
export type MyProxyBid = LotCard & { maxAmount: number; state: EntrustState; updatedAt: string }

const MyProxyBidSchema = {
  parse(value: unknown): MyProxyBid {
    const card = LotCardSchema.parse(value)
    const row = value as { maxAmount?: unknown; state?: unknown; updatedAt?: unknown }
    if (!Number.isSafeInteger(row.maxAmount) || typeof row.updatedAt !== 'string') {
      throw new TypeError('not a proxy bid')
    }
    return {
      ...card,
      maxAmount: row.maxAmount as number,
      state: EntrustStateSchema.parse(row.state),
      updatedAt: row.updatedAt,
    }
  },
}

/** GET /user/{userId}/@entrust?state=: my proxy bids in one state, newest first. */
export function getMyProxyBids(userId: string, state: EntrustState): Promise<MyProxyBid[]> {
  return request({
    path: `/user/${encodeURIComponent(userId)}/@entrust`,
    query: { state },
    defaultError: 'GET_LIST_FAILED',
    schema: listOf(MyProxyBidSchema),
  })
}

export function getMyProxyBidsQueryOptions(state: EntrustState) {
  return queryOptions({
    queryKey: ['bidding', 'mine', 'entrust', state],
    queryFn: () => getMyProxyBids(readSession()?.userId ?? '', state),
  })
}

export function useMyProxyBids(state: EntrustState) {
  return useQuery(getMyProxyBidsQueryOptions(state))
}
