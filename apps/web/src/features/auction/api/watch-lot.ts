import type { WatchState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { lazySchema } from '../../../lib/lazy-schema'

const watchStateSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => m.WatchStateSchema),
)

/** POST /auction/{id}/@attention: watch a lot (hooks/use-toggle-watch.ts is the hook). */
export function watchLot(lotId: number): Promise<WatchState> {
  return request({
    method: 'POST',
    path: `/auction/${lotId}/@attention`,
    defaultError: 'FOLLOW_FAILED',
    schema: watchStateSchema,
  })
}
