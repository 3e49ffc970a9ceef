import { queryOptions, useQuery } from '@tanstack/react-query'
import { TradeStateSchema, type TRADE_STATES } from '@numisma/contracts/bidding'
import { LotCardSchema, type LotCard } from '@numisma/contracts/catalog'
import { request } from '../../../lib/api-client'
import { readSession } from '../../../lib/cookies'
import { listOf } from '../../../lib/list-of'

export type TradeState = (typeof TRADE_STATES)[number]

/** A lot the caller has bid on, with where they stand and their highest bid (fen). */
export type MyBid = LotCard & { state: TradeState; myHighest: number }

const MyBidSchema = {
  parse(value: unknown): MyBid {
    const card = LotCardSchema.parse(value)
    const row = value as { state?: unknown; myHighest?: unknown }
    if (!Number.isSafeInteger(row.myHighest)) throw new TypeError('not a bid of mine')
    return { ...card, state: TradeStateSchema.parse(row.state), myHighest: row.myHighest as number }
  },
}

/** GET /user/{userId}/@trade: every lot I have bid on (one call; the tabs filter it). */
export function getMyBids(userId: string, state?: TradeState): Promise<MyBid[]> {
  return request({
    path: `/user/${encodeURIComponent(userId)}/@trade`,
    query: { state },
    defaultError: 'GET_BID_INFO_FAILED',
    schema: listOf(MyBidSchema),
  })
}

export function getMyBidsQueryOptions() {
  return queryOptions({
    queryKey: ['bidding', 'mine', 'trade'],
    queryFn: () => getMyBids(readSession()?.userId ?? ''),
  })
}

export function useMyBids() {
  return useQuery(getMyBidsQueryOptions())
}
