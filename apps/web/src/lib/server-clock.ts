import { useSyncExternalStore } from 'react'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from './api-client'
import { clockOffset } from './clock-offset'
import { lazySchema } from './lazy-schema'

const serverTimeSchema = lazySchema(() =>
  import('@numisma/contracts/catalog').then((m) => m.ServerTimeSchema),
)

/** How often the offset is measured again while a countdown is on screen. */
export const SERVER_CLOCK_REFRESH_MS = 3 * 60_000

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

export function getServerClockQueryOptions() {
  return queryOptions({
    queryKey: ['pub', 'time'],
    queryFn: getServerClock,
    staleTime: 60_000,
    refetchInterval: SERVER_CLOCK_REFRESH_MS,
    // The phone may have slept or its clock been changed while away.
    refetchOnWindowFocus: true,
  })
}

/** The offset once measured; undefined until the server has answered (no phone-clock guess). */
export function useServerClock(): number | undefined {
  return useQuery(getServerClockQueryOptions()).data?.offset
}

// One shared one-second tick for every countdown on screen; the snapshot is the tick's time.
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | undefined
let tickNow = Date.now()

function tick(): void {
  tickNow = Date.now()
  for (const listener of listeners) listener()
}

function subscribeTick(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === undefined) {
    tickNow = Date.now()
    timer = setInterval(tick, 1000)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer)
      timer = undefined
    }
  }
}

const noSubscription = (): (() => void) => () => undefined
const tickSnapshot = (): number => tickNow

/**
 * Server "now" in ms, re-rendering every second while `running`; undefined until the server
 * time is known. Hidden (kept-alive but inactive) pages pass running=false and stop ticking.
 */
export function useServerNow(running = true): number | undefined {
  const offset = useServerClock()
  const local = useSyncExternalStore(
    running ? subscribeTick : noSubscription,
    tickSnapshot,
    // On the server (app/first-screen-server.tsx) the offset is never known: the value is not shown.
    tickSnapshot,
  )
  return offset === undefined ? undefined : local + offset
}
