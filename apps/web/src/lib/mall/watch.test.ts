import type { MallItemDetail } from '@numisma/contracts/catalog'
import type { WatchedMallItem } from '@numisma/contracts/mall'
import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api-client'
import { getMallItemQueryOptions } from './get-mall-item'
import {
  getWatchedMallItems,
  getWatchedMallItemsQueryOptions,
  toggleMallWatchMutationOptions,
  unwatchMallItem,
  watchMallItem,
} from './watch'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const buildWatched = (overrides: Partial<WatchedMallItem> = {}): WatchedMallItem => ({
  id: 7,
  productNo: 'M100007',
  title: '熊猫银币30克',
  image: '/svc/media/art/a.svg',
  gradeCode: 0,
  gradingService: null,
  price: 32_800,
  stock: 6,
  sold: 2,
  onSale: true,
  watchedAt: '2030-01-01T00:00:00.000Z',
  ...overrides,
})

const buildDetail = (watched: boolean): MallItemDetail => ({
  ...buildWatched(),
  categoryId: 3,
  subtitle: '',
  description: '',
  images: [],
  certNo: null,
  year: '2019',
  denomination: '10元',
  material: '银',
  limitPerUser: null,
  exportBanned: false,
  watched,
  boughtByMe: 0,
})

describe('mall watch calls', () => {
  it('watch and unwatch POST the spec paths with the mall default toast (spec §8)', async () => {
    server.reply = { productNo: 'M 1', watched: true }
    expect(await watchMallItem('M 1')).toEqual({ productNo: 'M 1', watched: true })
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/mall/attention/M%201',
      defaultError: 'UNFOLLOW_FAILED',
    })
    server.reply = { productNo: 'M 1', watched: false }
    expect((await unwatchMallItem('M 1')).watched).toBe(false)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/mall/cancelAttention/M%201',
      defaultError: 'UNFOLLOW_FAILED',
    })
  })

  it('reads the watched list with its contract schema', async () => {
    server.reply = [buildWatched(), buildWatched({ productNo: 'M100008', onSale: false })]
    const list = await getWatchedMallItems()
    expect(list.map((i) => [i.productNo, i.onSale])).toEqual([
      ['M100007', true],
      ['M100008', false],
    ])
    expect(lastCall()).toMatchObject({
      path: '/user/auction/queryUserMallAttentions',
      defaultError: 'GET_MALL_FOLLOW_INFO_FAILED',
    })
    server.reply = [{ productNo: 'M1' }]
    await expect(getWatchedMallItems()).rejects.toThrow()
  })
})

describe('toggleMallWatchMutationOptions', () => {
  const seeded = () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(getMallItemQueryOptions('M100007').queryKey, buildDetail(true))
    queryClient.setQueryData(getWatchedMallItemsQueryOptions().queryKey, [buildWatched()])
    return queryClient
  }
  const stale = (queryClient: QueryClient, queryKey: readonly unknown[]) =>
    queryClient.getQueryState(queryKey)?.isInvalidated

  it("on 2xx sets the item's heart and refreshes the watchlist", async () => {
    const queryClient = seeded()
    server.reply = { productNo: 'M100007', watched: false }
    const toggle = new MutationObserver(queryClient, toggleMallWatchMutationOptions(queryClient))
    await toggle.mutate({ productNo: 'M100007', watch: false })
    expect(lastCall().path).toBe('/mall/cancelAttention/M100007')
    expect(queryClient.getQueryData(getMallItemQueryOptions('M100007').queryKey)?.watched).toBe(
      false,
    )
    expect(stale(queryClient, getWatchedMallItemsQueryOptions().queryKey)).toBe(true)
  })

  it('on a failure changes nothing (the heart moves only on 2xx, spec §4)', async () => {
    const queryClient = seeded()
    server.failure = new ApiError('UNFOLLOW_FAILED', 500, '取消关注失败')
    const toggle = new MutationObserver(queryClient, toggleMallWatchMutationOptions(queryClient))
    await expect(toggle.mutate({ productNo: 'M100007', watch: false })).rejects.toThrow()
    expect(queryClient.getQueryData(getMallItemQueryOptions('M100007').queryKey)?.watched).toBe(
      true,
    )
    expect(stale(queryClient, getWatchedMallItemsQueryOptions().queryKey)).toBe(false)
  })
})
