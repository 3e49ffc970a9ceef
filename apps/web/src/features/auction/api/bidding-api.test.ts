import type { BidRecord, BidResult, Entrust, Trade } from '@numisma/contracts/bidding'
import type { LotCard, LotDetail } from '@numisma/contracts/catalog'
import {
  MutationObserver,
  QueryClient,
  QueryObserver,
  type InfiniteData,
} from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, type Page } from '../../../lib/api-client'
import { toggleWatchMutationOptions } from '../hooks/use-toggle-watch'
import { cancelProxy, cancelProxyMutationOptions } from './cancel-proxy'
import { getBidHistory, getBidHistoryQueryOptions, historyRows } from './get-bid-history'
import { getLotQueryOptions } from './get-lot'
import { getMyBids, getMyBidsQueryOptions, hasBidOnQueryOptions } from './get-my-bids'
import { getMyProxyBids } from './get-my-proxy-bids'
import { getPriceSteps } from './get-price-steps'
import { getProxyBidCounts, getProxyBidCountsQueryOptions } from './get-proxy-bid-counts'
import { getWatchState, getWatchStateQueryOptions } from './get-watch-state'
import { getWatchedLotsQueryOptions } from './get-watched-lots'
import { placeBid, placeBidMutationOptions } from './place-bid'
import { unwatchLot } from './unwatch-lot'
import { watchLot } from './watch-lot'
import { fakeServer as server, lastCall, resetFakeServer } from '../../../test/fake-api-client'

vi.mock('../../../lib/api-client', async (importOriginal) =>
  (await import('../../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const buildLotCard = (overrides: Partial<LotCard> = {}): LotCard => ({
  id: 7,
  specialId: 3,
  lotNo: 12,
  title: '1980 Great Wall 1 yuan',
  image: '/img/7.jpg',
  gradeCode: 65,
  gradingService: 'PMG',
  startPrice: 50_000,
  price: 62_000,
  bidCount: 4,
  startsAt: '2030-01-01T00:00:00.000Z',
  endsAt: '2030-01-02T00:00:00.000Z',
  status: 'live',
  ...overrides,
})

const buildLotDetail = (overrides: Partial<LotDetail> = {}): LotDetail => ({
  ...buildLotCard(),
  specialTitle: 'Spring special',
  categoryId: null,
  subtitle: '',
  description: '',
  images: [],
  certNo: null,
  year: '1980',
  denomination: '1 yuan',
  material: 'paper',
  exportBanned: false,
  hasReserve: false,
  reserveMet: false,
  leading: false,
  myMax: null,
  won: false,
  orderId: null,
  softCloseWindowSeconds: 300,
  softCloseExtendSeconds: 300,
  ...overrides,
})

const buildRecord = (overrides: Partial<BidRecord> = {}): BidRecord => ({
  bidder: '藏***0',
  amount: 62_000,
  auto: false,
  at: '2030-01-01T10:00:00.000Z',
  mine: false,
  ...overrides,
})

const buildResult = (overrides: Partial<BidResult> = {}): BidResult => ({
  lotId: 7,
  price: 64_000,
  bidCount: 5,
  endsAt: '2030-01-02T00:05:00.000Z',
  leading: true,
  myMax: 80_000,
  ...overrides,
})

describe('bidding and watch API files parse with the contract schemas', () => {
  it('GET /bidding/price-step: rows of integer fen, nothing else', async () => {
    server.reply = [
      { from: 0, step: 1_000 },
      { from: 100_000, step: 5_000 },
    ]
    await expect(getPriceSteps()).resolves.toEqual(server.reply)
    expect(lastCall().path).toBe('/bidding/price-step')
    for (const bad of [[{ from: 0 }], [{ from: '0', step: 100 }], [{ from: 0, step: 0.5 }], {}]) {
      server.reply = bad
      await expect(getPriceSteps()).rejects.toThrow()
    }
  })

  it('GET /user/{id}/@entrust: lot cards with my maximum and a known state', async () => {
    const entrust: Entrust = {
      ...buildLotCard(),
      maxAmount: 80_000,
      state: 'active',
      updatedAt: '2030-01-01T10:00:00.000Z',
    }
    server.reply = [entrust]
    await expect(getMyProxyBids('42', 'active')).resolves.toEqual([entrust])
    expect(lastCall()).toMatchObject({ path: '/user/42/@entrust', query: { state: 'active' } })
    server.reply = [{ ...entrust, state: 'paused' }]
    await expect(getMyProxyBids('42', 'active')).rejects.toThrow()
    server.reply = [{ ...entrust, maxAmount: undefined }]
    await expect(getMyProxyBids('42', 'active')).rejects.toThrow()
  })

  it('GET /user/{id}/@trade: lot cards with my highest bid and a known state', async () => {
    const trade: Trade = { ...buildLotCard(), state: 'outbid', myHighest: 60_000 }
    server.reply = [trade]
    await expect(getMyBids('42')).resolves.toEqual([trade])
    expect(lastCall().path).toBe('/user/42/@trade')
    server.reply = [{ ...trade, myHighest: '60000' }]
    await expect(getMyBids('42')).rejects.toThrow()
    server.reply = [{ ...trade, state: 'active' }]
    await expect(getMyBids('42')).rejects.toThrow()
  })

  it('tells whether I have bid on a lot from my bids, however long its history', () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(getMyBidsQueryOptions().queryKey, [
      { ...buildLotCard({ id: 7 }), state: 'outbid', myHighest: 60_000 },
    ])
    const seen = (lotId: number) =>
      new QueryObserver(queryClient, hasBidOnQueryOptions(lotId)).getCurrentResult().data
    expect(seen(7)).toBe(true)
    expect(seen(8)).toBe(false)
  })

  it('GET /user/queryEntrustSortTotal: a count for every proxy-bid state', async () => {
    server.reply = { active: 2, outbid: 1, won: 0, lost: 3, cancelled: 1 }
    await expect(getProxyBidCounts()).resolves.toEqual(server.reply)
    server.reply = { active: 2, outbid: 1.5, won: 0, lost: 3, cancelled: 1 }
    await expect(getProxyBidCounts()).rejects.toThrow()
  })

  it('watch state, watch and unwatch: { lotId, watching } from the server, checked', async () => {
    server.reply = [{ lotId: 7, watching: true }]
    await expect(getWatchState([7, 8], '42')).resolves.toEqual([{ lotId: 7, watching: true }])
    expect(lastCall()).toMatchObject({ path: '/auction/7,8/@attention', query: { userId: '42' } })

    server.reply = { lotId: 7, watching: true }
    await expect(watchLot(7)).resolves.toEqual({ lotId: 7, watching: true })
    expect(lastCall()).toMatchObject({ method: 'POST', path: '/auction/7/@attention' })
    server.reply = { lotId: 7, watching: false }
    await expect(unwatchLot(7)).resolves.toEqual({ lotId: 7, watching: false })
    expect(lastCall()).toMatchObject({ method: 'DELETE', path: '/auction/7/@attention' })

    // Before the contract these were cast, not checked: a missing flag read as "not watching".
    server.reply = { lotId: 7 }
    await expect(watchLot(7)).rejects.toThrow()
    await expect(unwatchLot(7)).rejects.toThrow()
    server.reply = [{ lotId: 7, watching: 'yes' }]
    await expect(getWatchState([7], '42')).rejects.toThrow()
  })

  it('POST /bidding/bid: the result with the reason a bid does not lead', async () => {
    const notLeading = buildResult({
      leading: false,
      notLeading: { rule: 'proxy_higher', minimum: 66_000 },
    })
    server.reply = notLeading
    await expect(placeBid({ lotId: 7, amount: 64_000, proxy: false }, 'key-1')).resolves.toEqual(
      notLeading,
    )
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/bidding/bid',
      idempotencyKey: 'key-1',
      silent: true,
    })
    server.reply = {
      ...buildResult({ leading: false }),
      notLeading: { rule: 'louder', minimum: 1 },
    }
    await expect(placeBid({ lotId: 7, amount: 64_000, proxy: false })).rejects.toThrow()
  })

  it('POST /bidding/cancelProxy: only a confirmed cancellation passes', async () => {
    server.reply = { lotId: 7, cancelled: true }
    await expect(cancelProxy(7)).resolves.toEqual({ lotId: 7, cancelled: true })
    expect(lastCall()).toMatchObject({ method: 'POST', body: { lotId: 7 } })
    // Cast, not checked, before: `cancelled: false` would have been shown as a success.
    server.reply = { lotId: 7, cancelled: false }
    await expect(cancelProxy(7)).rejects.toThrow()
  })
})

describe('bid history, a page at a time', () => {
  it('asks for a page and its size and checks every row', async () => {
    server.reply = { data: [buildRecord()], page: 2, pageSize: 50, total: 51 }
    await expect(getBidHistory(7, 2)).resolves.toEqual(server.reply)
    expect(lastCall()).toMatchObject({ path: '/bidding/7', query: { page: 2, pageSize: 50 } })
    server.reply = { data: [{ ...buildRecord(), amount: '620' }], page: 1, pageSize: 50, total: 1 }
    await expect(getBidHistory(7, 1)).rejects.toThrow()
    // The envelope is the contract's too: without a total the list could not know it has more.
    server.reply = { data: [buildRecord()], page: 1, pageSize: 50 }
    await expect(getBidHistory(7, 1)).rejects.toThrow()
  })

  it('loads older pages until the total is reached', async () => {
    const queryClient = new QueryClient()
    const rows = Array.from({ length: 120 }, (_, i) =>
      buildRecord({
        amount: 200_000 - i * 1_000,
        at: new Date(Date.UTC(2030, 0, 1, 10, 0, 120 - i)).toISOString(),
      }),
    )
    server.reply = (query: { page: number; pageSize: number }) => ({
      data: rows.slice((query.page - 1) * query.pageSize, query.page * query.pageSize),
      page: query.page,
      pageSize: query.pageSize,
      total: rows.length,
    })
    const options = getBidHistoryQueryOptions(7)
    await queryClient.infiniteQuery(options)
    const first = queryClient.getQueryData(options.queryKey)!
    expect(options.getNextPageParam(first.pages.at(-1)!, first.pages, 1, [1])).toBe(2)
    await queryClient.infiniteQuery({ ...options, pages: 3, staleTime: 0 })
    const all = queryClient.getQueryData(options.queryKey)!
    expect(all.pages.map((p) => p.data.length)).toEqual([50, 50, 20])
    expect(options.getNextPageParam(all.pages.at(-1)!, all.pages, 3, [1, 2, 3])).toBeUndefined()
    expect(historyRows(all)).toEqual(rows)
  })

  it('shows a row once when a new bid shifted it onto the next page', () => {
    const newest = buildRecord({ amount: 64_000, at: '2030-01-01T10:02:00.000Z' })
    const middle = buildRecord({ amount: 63_000, at: '2030-01-01T10:01:00.000Z', auto: true })
    const oldest = buildRecord({ amount: 62_000, at: '2030-01-01T10:00:00.000Z' })
    // Page 1 was loaded with [middle, oldest]; then a bid came in, and page 2 starts at `oldest`.
    const data: InfiniteData<Page<BidRecord>> = {
      pages: [
        { data: [newest, middle], page: 1, pageSize: 2, total: 3 },
        { data: [oldest], page: 2, pageSize: 2, total: 3 },
      ],
      pageParams: [1, 2],
    }
    expect(historyRows(data)).toEqual([newest, middle, oldest])
    const shifted: InfiniteData<Page<BidRecord>> = {
      pages: [
        { data: [middle, oldest], page: 1, pageSize: 2, total: 2 },
        { data: [oldest], page: 2, pageSize: 2, total: 3 },
      ],
      pageParams: [1, 2],
    }
    expect(historyRows(shifted)).toEqual([middle, oldest])
  })
})

describe('mutation hooks own their cache', () => {
  const seedLot = (queryClient: QueryClient) => {
    queryClient.setQueryData(getLotQueryOptions(7).queryKey, buildLotDetail())
    queryClient.setQueryData(getBidHistoryQueryOptions(7).queryKey, {
      pages: [{ data: [buildRecord()], page: 1, pageSize: 50, total: 1 }],
      pageParams: [1],
    })
    queryClient.setQueryData(getMyBidsQueryOptions().queryKey, [])
    queryClient.setQueryData(getProxyBidCountsQueryOptions().queryKey, {
      active: 0,
      outbid: 0,
      won: 0,
      lost: 0,
      cancelled: 0,
    })
  }
  const stale = (queryClient: QueryClient, queryKey: readonly unknown[]) =>
    queryClient.getQueryState(queryKey)?.isInvalidated

  it('a bid writes its result into the lot and refreshes the lot, its history and my lists', async () => {
    const queryClient = new QueryClient()
    seedLot(queryClient)
    server.reply = buildResult()
    const bid = new MutationObserver(queryClient, placeBidMutationOptions(queryClient))
    await bid.mutate({ bid: { lotId: 7, amount: 64_000, proxy: true }, idempotencyKey: 'k' })
    expect(queryClient.getQueryData(getLotQueryOptions(7).queryKey)).toMatchObject({
      price: 64_000,
      bidCount: 5,
      leading: true,
      myMax: 80_000,
    })
    expect(stale(queryClient, getLotQueryOptions(7).queryKey)).toBe(true)
    expect(stale(queryClient, getBidHistoryQueryOptions(7).queryKey)).toBe(true)
    expect(stale(queryClient, getMyBidsQueryOptions().queryKey)).toBe(true)
    expect(stale(queryClient, getProxyBidCountsQueryOptions().queryKey)).toBe(true)
  })

  it('a refused bid refreshes too (the lot moved on), an offline one does not', async () => {
    const queryClient = new QueryClient()
    seedLot(queryClient)
    server.failure = new ApiError('BID_TOO_LOW', 422, 'too low')
    const bid = new MutationObserver(queryClient, placeBidMutationOptions(queryClient))
    const vars = { bid: { lotId: 7, amount: 64_000, proxy: false }, idempotencyKey: 'k' }
    await expect(bid.mutate(vars)).rejects.toThrow('too low')
    expect(stale(queryClient, getLotQueryOptions(7).queryKey)).toBe(true)

    const offline = new QueryClient()
    seedLot(offline)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const again = new MutationObserver(offline, placeBidMutationOptions(offline))
    await expect(again.mutate(vars)).rejects.toThrow('offline')
    expect(stale(offline, getLotQueryOptions(7).queryKey)).toBe(false)
    expect(stale(offline, getBidHistoryQueryOptions(7).queryKey)).toBe(false)
  })

  it('cancelling a proxy refreshes the lot and my lists, not the history', async () => {
    const queryClient = new QueryClient()
    seedLot(queryClient)
    server.reply = { lotId: 7, cancelled: true }
    const cancel = new MutationObserver(queryClient, cancelProxyMutationOptions(queryClient))
    await cancel.mutate(7)
    expect(stale(queryClient, getLotQueryOptions(7).queryKey)).toBe(true)
    expect(stale(queryClient, getProxyBidCountsQueryOptions().queryKey)).toBe(true)
    expect(stale(queryClient, getBidHistoryQueryOptions(7).queryKey)).toBe(false)
  })

  it('watching sets the heart from the answer and refreshes the watchlist', async () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(getWatchStateQueryOptions(7).queryKey, false)
    queryClient.setQueryData(getWatchedLotsQueryOptions().queryKey, [])
    server.reply = { lotId: 7, watching: true }
    const toggle = new MutationObserver(queryClient, toggleWatchMutationOptions(queryClient))
    await toggle.mutate({ lotId: 7, watch: true })
    expect(queryClient.getQueryData(getWatchStateQueryOptions(7).queryKey)).toBe(true)
    expect(stale(queryClient, getWatchedLotsQueryOptions().queryKey)).toBe(true)
  })
})
