import { request } from '../../../lib/api-client'
import type { WatchState } from './get-watch-state'

/** POST /auction/{id}/@attention: watch a lot. */
export function watchLot(lotId: number): Promise<WatchState> {
  return request<WatchState>({
    method: 'POST',
    path: `/auction/${lotId}/@attention`,
    defaultError: 'FOLLOW_FAILED',
  })
}
