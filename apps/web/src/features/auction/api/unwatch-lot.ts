import type { WatchState } from '@numisma/contracts/bidding'
import { request } from '../../../lib/api-client'
import { lazySchema } from '../../../lib/lazy-schema'

const watchStateSchema = lazySchema(() =>
  import('@numisma/contracts/bidding').then((m) => m.WatchStateSchema),
)

/** DELETE /auction/{id}/@attention: stop watching a lot (hooks/use-toggle-watch.ts is the hook). */
export function unwatchLot(lotId: number): Promise<WatchState> {
  return request({
    method: 'DELETE',
    path: `/auction/${lotId}/@attention`,
    defaultError: 'FOLLOW_FAILED',
    schema: watchStateSchema,
  })
}
