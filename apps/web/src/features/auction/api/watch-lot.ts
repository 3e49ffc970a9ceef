import { WatchStateSchema, type WatchState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'

/** POST /auction/{id}/@attention: watch a lot (hooks/use-toggle-watch.ts is the hook). */
export function watchLot(lotId: number): Promise<WatchState> {
  return request({
    method: 'POST',
    path: `/auction/${lotId}/@attention`,
    defaultError: 'FOLLOW_FAILED',
    schema: WatchStateSchema,
  })
}
