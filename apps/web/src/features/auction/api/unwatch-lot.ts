import { request } from '../../../lib/api-client'
import type { WatchState } from './get-watch-state'

/** DELETE /auction/{id}/@attention: stop watching a lot. */
export function unwatchLot(lotId: number): Promise<WatchState> {
  return request<WatchState>({
    method: 'DELETE',
    path: `/auction/${lotId}/@attention`,
    defaultError: 'FOLLOW_FAILED',
  })
}
