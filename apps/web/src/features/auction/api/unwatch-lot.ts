import { WatchStateSchema, type WatchState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'

/** DELETE /auction/{id}/@attention: stop watching a lot (hooks/use-toggle-watch.ts is the hook). */
export function unwatchLot(lotId: number): Promise<WatchState> {
  return request({
    method: 'DELETE',
    path: `/auction/${lotId}/@attention`,
    defaultError: 'FOLLOW_FAILED',
    schema: WatchStateSchema,
  })
}
