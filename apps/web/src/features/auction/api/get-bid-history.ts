import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../../../lib/api-client'
import { listOf } from '../../../lib/list-of'

/** One price change of a lot (DESIGN §9): bidder masked for everyone but the bidder. */
export interface BidRecord {
  bidder: string
  /** Fen. */
  amount: number
  /** Placed automatically by a proxy bid. */
  auto: boolean
  /** ISO-8601 UTC. */
  at: string
  mine: boolean
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export const BidRecordSchema = {
  parse(value: unknown): BidRecord {
    if (
      !isRecord(value) ||
      typeof value.bidder !== 'string' ||
      typeof value.amount !== 'number' ||
      !Number.isSafeInteger(value.amount) ||
      typeof value.auto !== 'boolean' ||
      typeof value.at !== 'string'
    ) {
      throw new TypeError('not a bid record')
    }
    return {
      bidder: value.bidder,
      amount: value.amount,
      auto: value.auto,
      at: value.at,
      mine: value.mine === true,
    }
  },
}

/** GET /bidding/{id}: the bid history of a lot, newest first. */
export function getBidHistory(lotId: number): Promise<BidRecord[]> {
  return request({
    path: `/bidding/${lotId}`,
    defaultError: 'GET_BID_RECORDS_FAILED',
    schema: listOf(BidRecordSchema),
  })
}

export function getBidHistoryQueryOptions(lotId: number) {
  return queryOptions({
    queryKey: ['bidding', 'history', lotId],
    queryFn: () => getBidHistory(lotId),
    staleTime: 5_000,
  })
}

export function useBidHistory(lotId: number | undefined) {
  return useQuery({ ...getBidHistoryQueryOptions(lotId ?? 0), enabled: lotId !== undefined })
}
