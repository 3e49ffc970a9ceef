import { QueryClient } from '@tanstack/react-query'
import { ApiError } from './api-client'

/**
 * Every failure has already been toasted by request(); retrying a 4xx (or an offline/timeout
 * refusal) would only repeat the toast, so only a 5xx gets one more try.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return error instanceof ApiError && error.status >= 500 && failureCount < 1
}

/**
 * `networkMode: 'always'`: TanStack Query would otherwise pause quietly while offline, but spec §5
 * wants every data action to reach request(), which alerts and makes no call.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  })
}
