import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PAGE_CLOCK_TIMING } from '@numisma/contracts/client-config'

// The clock call never answers here: a query built anew fetches, and nothing in these tests waits
// for the server.
vi.mock('./api-client', () => ({ request: () => new Promise(() => undefined) }))
import {
  getServerClockQueryOptions,
  type PageTiming,
  pageClockSample,
  resetPageClock,
  SERVER_CLOCK_STALE_MS,
  localSecond,
  secondTick,
  sharedClock,
  takePageClock,
} from './server-clock'

const ORIGIN = 1_800_000_000_000

function timing(
  description: string | undefined,
  requestStart = 100,
  responseStart = 180,
  name = PAGE_CLOCK_TIMING,
  how: Partial<Pick<PageTiming['entry'], 'type' | 'transferSize' | 'deliveryType'>> = {},
): PageTiming {
  return {
    timeOrigin: ORIGIN,
    entry: {
      type: 'navigate',
      transferSize: 12_000,
      ...how,
      requestStart,
      responseStart,
      serverTiming:
        description === undefined
          ? []
          : [
              { name: 'first-screen', duration: 3, description: '', toJSON: () => ({}) },
              { name, duration: 0, description, toJSON: () => ({}) },
            ],
    },
  }
}

afterEach(resetPageClock)

describe("the page's clock (ADR 026 §14)", () => {
  it("times the server's clock over the page's own request", () => {
    expect(pageClockSample(timing(String(ORIGIN + 5_140)))).toEqual({
      sentAt: ORIGIN + 100,
      receivedAt: ORIGIN + 180,
      serverTimestamp: ORIGIN + 5_140,
    })
    // Halfway through the round trip the server read 5 s later than the phone's clock.
    expect(takePageClock(timing(String(ORIGIN + 5_140)), ORIGIN + 500)).toEqual({
      clock: { offset: 5_000 },
      at: ORIGIN + 180,
    })
  })

  it('nothing where the browser or the server gave no clock', () => {
    expect(pageClockSample(undefined)).toBeUndefined()
    expect(pageClockSample(timing(undefined))).toBeUndefined()
    expect(pageClockSample(timing(''))).toBeUndefined()
    expect(pageClockSample(timing('soon'))).toBeUndefined()
    expect(pageClockSample(timing('1.5'))).toBeUndefined()
    expect(pageClockSample(timing(String(ORIGIN), 100, 180, 'other'))).toBeUndefined()
    // A request the browser did not time (requestStart 0), or timed backwards.
    expect(pageClockSample(timing(String(ORIGIN), 0, 180))).toBeUndefined()
    expect(pageClockSample(timing(String(ORIGIN), 200, 180))).toBeUndefined()
  })

  it("none for a page from the browser's cache: its clock is the first load's", () => {
    const page = (how: Parameters<typeof timing>[4]) =>
      pageClockSample(timing(String(ORIGIN), 100, 180, PAGE_CLOCK_TIMING, how))
    expect(page({})).toBeDefined()
    expect(page({ type: 'reload' })).toBeDefined()
    expect(page({ type: 'back_forward' })).toBeUndefined()
    expect(page({ transferSize: 0 })).toBeUndefined()
    expect(page({ deliveryType: 'cache' })).toBeUndefined()
  })

  it('taken once, and only while fresh: a clock query made again later measures afresh', () => {
    const page = timing(String(ORIGIN + 180))
    expect(takePageClock(page, ORIGIN + 180 + SERVER_CLOCK_STALE_MS + 1)).toBeUndefined()
    expect(takePageClock(page, ORIGIN + 1_000)).toBeDefined()
    expect(takePageClock(page, ORIGIN + 1_000)).toBeUndefined()
  })

  it('outside a browser page there is none, and it is not used up', () => {
    // Node has Navigation Timing, but no navigation: the server's first screen, unit tests.
    expect(takePageClock()).toBeUndefined()
    expect(takePageClock(timing(String(ORIGIN)), ORIGIN + 200)).toBeDefined()
  })

  it("the clock query's first data is the page's, as old as the page", () => {
    const { timeOrigin } = performance
    const [entry] = performance.getEntriesByType('navigation')
    expect(entry).toBeUndefined()
    // A browser page whose answer arrived, over a 40 ms round trip, from a server whose clock is
    // 7 s ahead; the app starts 2 s later.
    const arrived = Math.max(Date.now() - timeOrigin, 100)
    const stamp = Math.round(timeOrigin + arrived - 20 + 7_000)
    const page = {
      type: 'navigate',
      transferSize: 9_000,
      requestStart: arrived - 40,
      responseStart: arrived,
      serverTiming: [{ name: PAGE_CLOCK_TIMING, description: String(stamp) }],
    }
    const original = performance.getEntriesByType.bind(performance)
    performance.getEntriesByType = ((type: string) =>
      type === 'navigation' ? [page] : original(type)) as typeof performance.getEntriesByType
    vi.spyOn(Date, 'now').mockReturnValue(Math.round(timeOrigin + arrived + 2_000))
    try {
      const client = new QueryClient()
      const build = () =>
        client
          .getQueryCache()
          .build(client, client.defaultQueryOptions(getServerClockQueryOptions()))
      const query = build()
      expect(query.state.data).toEqual({
        offset: Math.round(stamp - (timeOrigin + arrived - 20)),
      })
      expect(query.state.dataUpdatedAt).toBe(timeOrigin + arrived)
      expect(query.isStaleByTime(SERVER_CLOCK_STALE_MS)).toBe(false)
      expect(query.isStaleByTime(1_000)).toBe(true)
      // Taken once: a query built again (after garbage collection) has none and fetches.
      client.clear()
      expect(build().state.data).toBeUndefined()
    } finally {
      performance.getEntriesByType = original
      vi.restoreAllMocks()
    }
  })
})

describe("the countdowns' tick", () => {
  afterEach(() => vi.useRealTimers())

  it('subscribing changes no snapshot; it ticks on each whole second, until the last one leaves', () => {
    vi.useFakeTimers({ now: ORIGIN + 300, toFake: ['Date', 'setTimeout', 'clearTimeout'] })
    const rendered = secondTick.snapshot()
    // A second passes between the render and its subscription: the store is the same.
    vi.advanceTimersByTime(900)
    const seconds: number[] = []
    const unsubscribe = secondTick.subscribe(() => seconds.push(localSecond()))
    expect(secondTick.snapshot()).toBe(rendered)
    vi.advanceTimersByTime(799)
    expect(seconds).toEqual([])
    vi.advanceTimersByTime(1)
    expect(seconds).toEqual([ORIGIN + 2_000])
    expect(secondTick.snapshot()).toBe(rendered + 1)
    vi.advanceTimersByTime(2_000)
    expect(seconds).toEqual([ORIGIN + 2_000, ORIGIN + 3_000, ORIGIN + 4_000])
    unsubscribe()
    vi.advanceTimersByTime(5_000)
    expect(seconds).toHaveLength(3)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a countdown that leaves on a tick takes the timer with it, and a new one starts one tick', () => {
    vi.useFakeTimers({ now: ORIGIN, toFake: ['Date', 'setTimeout', 'clearTimeout'] })
    let unsubscribe = secondTick.subscribe(() => unsubscribe())
    vi.advanceTimersByTime(1_000)
    expect(vi.getTimerCount()).toBe(0)
    // Leaving on a tick while another countdown arrives: one timer, not two.
    let later: () => void = () => undefined
    unsubscribe = secondTick.subscribe(() => {
      unsubscribe()
      later = secondTick.subscribe(() => undefined)
    })
    vi.advanceTimersByTime(1_000)
    expect(vi.getTimerCount()).toBe(1)
    later()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe("the countdowns' clock", () => {
  it('is one observer of the clock query however many countdowns read it', () => {
    const client = new QueryClient()
    const key = getServerClockQueryOptions().queryKey
    client.setQueryData(key, { offset: 1_500 })
    const shared = sharedClock(client)
    expect(sharedClock(client)).toBe(shared)
    const leave = [1, 2, 3].map(() => shared.subscribe(() => undefined))
    expect(shared.offset()).toBe(1_500)
    expect(client.getQueryCache().find({ queryKey: key })?.getObserversCount()).toBe(1)
    for (const l of leave) l()
    expect(client.getQueryCache().find({ queryKey: key })?.getObserversCount()).toBe(0)
  })

  it('finds the query again when it was collected while no countdown was on screen', () => {
    const client = new QueryClient()
    const key = getServerClockQueryOptions().queryKey
    client.setQueryData(key, { offset: 1_500 })
    const shared = sharedClock(client)
    shared.subscribe(() => undefined)()
    client.clear()
    client.setQueryData(key, { offset: -700 })
    const leave = shared.subscribe(() => undefined)
    expect(shared.offset()).toBe(-700)
    expect(client.getQueryCache().find({ queryKey: key })?.getObserversCount()).toBe(1)
    leave()
  })

  it('finds the query again when the cache is cleared while countdowns are on screen', () => {
    const client = new QueryClient()
    const key = getServerClockQueryOptions().queryKey
    client.setQueryData(key, { offset: 1_500 })
    const shared = sharedClock(client)
    let told = 0
    const leave = shared.subscribe(() => told++)
    client.clear()
    const rebuilt = client.getQueryCache().find({ queryKey: key })
    expect(rebuilt?.getObserversCount()).toBe(1)
    client.setQueryData(key, { offset: 250 })
    expect(shared.offset()).toBe(250)
    expect(told).toBeGreaterThan(0)
    leave()
    expect(rebuilt?.getObserversCount()).toBe(0)
  })
})
