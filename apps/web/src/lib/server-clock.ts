import { useSyncExternalStore } from 'react'
import {
  type QueryClient,
  QueryObserver,
  queryOptions,
  useQueryClient,
} from '@tanstack/react-query'
import { PAGE_CLOCK_TIMING } from '@numisma/contracts/client-config'
import { request } from './api-client'
import { type ClockSample, clockOffset } from './clock-offset'
import { lazySchema } from './lazy-schema'

const serverTimeSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => m.ServerTimeSchema),
)

/** How often the offset is measured again while a countdown is on screen. */
export const SERVER_CLOCK_REFRESH_MS = 3 * 60_000
/** How long a measured offset counts as fresh. */
export const SERVER_CLOCK_STALE_MS = 60_000

export interface ServerClock {
  /** Server time minus the phone's clock, in ms. */
  offset: number
}

/**
 * GET /pub/@time, timed so the offset accounts for the round trip — the call's alone: the answer's
 * check may still be loading when it arrives (the first call after start).
 */
export async function getServerClock(): Promise<ServerClock> {
  const sentAt = Date.now()
  let receivedAt = 0
  const time = await request({
    path: '/pub/@time',
    defaultError: 'GET_TIME_FAILED',
    schema: serverTimeSchema,
    onAnswer: () => (receivedAt = Date.now()),
  })
  return { offset: clockOffset({ sentAt, receivedAt, serverTimestamp: time.timestamp }) }
}

/** The page's own request as the browser timed it (Navigation Timing), on the browser's clock. */
export interface PageTiming {
  timeOrigin: number
  entry: Pick<
    PerformanceNavigationTiming,
    'requestStart' | 'responseStart' | 'serverTiming' | 'type' | 'transferSize'
  > & {
    /** 'cache' for a page from the HTTP cache (newer browsers; not in TypeScript's DOM types). */
    deliveryType?: string
  }
}

function browserPageTiming(): PageTiming | undefined {
  // Outside a browser (the server's first screen, unit tests) there is no page request.
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') {
    return undefined
  }
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
  return entry ? { timeOrigin: performance.timeOrigin, entry } : undefined
}

/**
 * The clock sample the page's own request carries (ADR 026 §14): the server names its clock in
 * the page's `Server-Timing` as it sends it, and the browser timed the request's round trip, as
 * {@link getServerClock} times its call's. Undefined where the browser does not expose either,
 * and for a page the browser took from its cache (back or forward without asking the server):
 * its clock is the first load's, while the timing is the cache read's.
 */
export function pageClockSample(timing: PageTiming | undefined): ClockSample | undefined {
  if (!timing) return undefined
  const { entry, timeOrigin } = timing
  const stamp = entry.serverTiming?.find((t) => t.name === PAGE_CLOCK_TIMING)?.description
  const serverTimestamp = stamp ? Number(stamp) : NaN
  if (!Number.isSafeInteger(serverTimestamp)) return undefined
  if (!(entry.requestStart > 0) || !(entry.responseStart >= entry.requestStart)) return undefined
  const fromCache =
    entry.type === 'back_forward' || entry.transferSize === 0 || entry.deliveryType === 'cache'
  if (fromCache) return undefined
  return {
    sentAt: timeOrigin + entry.requestStart,
    receivedAt: timeOrigin + entry.responseStart,
    serverTimestamp,
  }
}

let pageClockTaken = false
let pageClockAt = 0

/**
 * The first offset, from the page's request, once and while still fresh: a landing page's
 * countdowns then need no call (and no request signing or answer check on its first load), and a
 * clock query made again later measures afresh. `at` is when the page arrived.
 */
export function takePageClock(
  timing: PageTiming | undefined = browserPageTiming(),
  now: number = Date.now(),
): { clock: ServerClock; at: number } | undefined {
  if (pageClockTaken) return undefined
  const sample = pageClockSample(timing)
  if (!sample || now - sample.receivedAt > SERVER_CLOCK_STALE_MS) return undefined
  pageClockTaken = true
  return { clock: { offset: clockOffset(sample) }, at: sample.receivedAt }
}

/** For tests: the page's clock may be taken again. */
export function resetPageClock(): void {
  pageClockTaken = false
}

export function getServerClockQueryOptions() {
  return queryOptions({
    queryKey: ['pub', 'time'],
    queryFn: getServerClock,
    // TanStack Query reads initialData before initialDataUpdatedAt (a test holds it to that).
    initialData: () => {
      const first = takePageClock()
      pageClockAt = first?.at ?? 0
      return first?.clock
    },
    initialDataUpdatedAt: () => pageClockAt,
    staleTime: SERVER_CLOCK_STALE_MS,
    refetchInterval: SERVER_CLOCK_REFRESH_MS,
    // The phone may have slept or its clock been changed while away.
    refetchOnWindowFocus: true,
  })
}

interface SharedClock {
  subscribe: (listener: () => void) => () => void
  offset: () => number | undefined
}

const sharedClocks = new WeakMap<QueryClient, SharedClock>()

/**
 * One observer of the clock query for every countdown of a client. With `useQuery` each countdown
 * had its own, and each observer sets its own stale timeout and refetch interval as it subscribes:
 * a landing page's cards mounting did dozens of timer calls in one task (issue 13). An observer's
 * timers are set by its first listener only, so one observer shared by all sets them once.
 * Exported for its tests.
 */
export function sharedClock(client: QueryClient): SharedClock {
  let shared = sharedClocks.get(client)
  if (!shared) {
    const observer = new QueryObserver(client, getServerClockQueryOptions())
    // Cleared from the cache while countdowns are on screen (a cache cleared at sign-out): found
    // again at once, as useQuery did on its next render, so refetches and focus reach it.
    const { queryHash } = observer.getCurrentQuery()
    client.getQueryCache().subscribe((event) => {
      if (
        event.type === 'removed' &&
        event.query.queryHash === queryHash &&
        observer.hasListeners()
      ) {
        observer.setOptions(getServerClockQueryOptions())
      }
    })
    shared = {
      subscribe: (listener) => {
        // After a while with no countdown the query may have been collected and built anew:
        // found again in the cache, as useQuery does on every render.
        if (!observer.hasListeners()) observer.setOptions(getServerClockQueryOptions())
        return observer.subscribe(listener)
      },
      offset: () => observer.getCurrentResult().data?.offset,
    }
    sharedClocks.set(client, shared)
  }
  return shared
}

const noOffset = (): undefined => undefined

/** The offset once measured; undefined until the server has answered (no phone-clock guess). */
export function useServerClock(): number | undefined {
  const shared = sharedClock(useQueryClient())
  // On the server (app/first-screen-server.tsx) the offset is never known.
  return useSyncExternalStore(shared.subscribe, shared.offset, noOffset)
}

// One shared tick for every countdown on screen, on each whole second of the phone's clock. The
// store's value is the number of ticks, which only the tick changes: subscribing, or a second
// passing between a render and its subscription, changes nothing — React renders again at once,
// synchronously, when a store changed in between, and as a landing page started that second
// render of its countdowns' page was one long task (issue 13). The time itself is read as a
// component renders.
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setTimeout> | undefined
let ticks = 0

function tickOnTheSecond(): void {
  const handle = setTimeout(
    () => {
      ticks++
      for (const listener of listeners) listener()
      // Unless the last countdown left meanwhile (or left, and a new one started another tick).
      if (timer !== handle) return
      if (listeners.size > 0) tickOnTheSecond()
      else timer = undefined
    },
    1000 - (Date.now() % 1000),
  )
  timer = handle
}

function subscribeTick(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === undefined) tickOnTheSecond()
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
  }
}

const noSubscription = (): (() => void) => () => undefined
const tickCount = (): number => ticks

/** The countdowns' tick as the store React subscribes to (exported for its tests). */
export const secondTick = { subscribe: subscribeTick, snapshot: tickCount }

/** The phone's clock to the whole second, as countdowns show it. */
export function localSecond(): number {
  const now = Date.now()
  return now - (now % 1000)
}

/**
 * Server "now" in ms, re-rendering every second while `running`; undefined until the server
 * time is known. Hidden (kept-alive but inactive) pages pass running=false and stop ticking.
 */
export function useServerNow(running = true): number | undefined {
  const offset = useServerClock()
  // Renders again on every tick while running; the time is the second the render reads.
  useSyncExternalStore(running ? subscribeTick : noSubscription, tickCount, tickCount)
  // On the server (app/first-screen-server.tsx) the offset is never known: nothing is shown.
  return offset === undefined ? undefined : localSecond() + offset
}
