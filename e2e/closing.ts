import type { LotDetail } from '@numisma/contracts/catalog'
import type { Order } from '@numisma/contracts/orders'
import { dataOf, mainCall, type TestUser } from './fixtures'

/** Waits for the closing sweeper (every second) to settle a lot, as `as` sees it. */
export async function waitClosed(
  lotId: number,
  as?: TestUser,
  timeoutMs = 90_000,
): Promise<LotDetail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const lot = await dataOf<LotDetail>(mainCall(`/auction/${lotId}`, { as }))
    if (lot.status === 'sold' || lot.status === 'unsold') return lot
    if (Date.now() > deadline) throw new Error(`lot ${lotId} did not close: ${lot.status}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** The buyer's orders pending payment (`GET /user/3_3/order/query`). */
export const pendingOf = (as: TestUser): Promise<Order[]> =>
  dataOf<Order[]>(mainCall('/user/3_3/order/query', { as }))

/** The pending order of a won lot, once the closing has made it. */
export async function wonOrder(as: TestUser, lotId: number): Promise<Order> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const order = (await pendingOf(as)).find((o) => o.items.some((i) => i.lotId === lotId))
    if (order) return order
    if (Date.now() > deadline) throw new Error(`no order for lot ${lotId}`)
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}
