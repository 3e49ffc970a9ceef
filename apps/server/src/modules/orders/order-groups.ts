import type { Order, OrderGroupQuery, OrdersPage } from '@numisma/contracts/orders'
import {
  DEFAULT_STORAGE,
  type StorageRate,
  storageFee,
  storageFreeUntil,
} from '@numisma/domain/delivery'
import { ORDER_GROUP_STATUSES } from '@numisma/domain/order-status'
import type { Clock } from '../../platform/clock'
import { toOrder } from './mappers'
import type { OrderReads, OrderRow } from './reads-repository'

export interface OrderGroupDeps {
  reads: Pick<OrderReads, 'groupOf'>
  clock: Clock
  /** Storage beyond the free days (operator settings; the default otherwise). */
  storage?: StorageRate
}

/**
 * The order groups of spec §4 as the web's /myOrder and /order/list tabs list them (spec §7
 * "Orders"), in the shape of `GET /user/3_3/order/query`: waiting to ship (won lots, and mall
 * orders, paid or applied for delivery — the goods are still in storage) and completed. A paid
 * order in storage shows the storage it has run up so far and when it starts to cost; the fee is
 * fixed once delivery is applied for, so the other statuses carry none.
 */
export class OrderGroups {
  private readonly storage: StorageRate

  constructor(private readonly deps: OrderGroupDeps) {
    this.storage = deps.storage ?? DEFAULT_STORAGE
  }

  /** `GET /user/logistic/waiting` (auction) and `GET /user/bplus/queryNoPaymentMark` (mall). */
  waitingToShip(userId: number, kind: 'auction' | 'mall', query: OrderGroupQuery) {
    return this.page(userId, { statuses: ORDER_GROUP_STATUSES.waitingToShip, kind }, query)
  }

  /** `GET /user/order/getUserOrderByBid`: completed (traded) orders of both kinds. */
  completed(userId: number, query: OrderGroupQuery) {
    return this.page(userId, { statuses: ORDER_GROUP_STATUSES.completed }, query)
  }

  private async page(
    userId: number,
    filter: { statuses: readonly string[]; kind?: string },
    query: OrderGroupQuery,
  ): Promise<OrdersPage> {
    const { rows, total } = await this.deps.reads.groupOf(userId, filter, {
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    })
    const now = this.deps.clock.now()
    return {
      data: rows.map((row) => this.withStorage(row, now)),
      page: query.page,
      pageSize: query.pageSize,
      total,
    }
  }

  private withStorage(row: OrderRow, now: number): Order {
    const order = toOrder(row)
    if (row.status !== 'paid' || row.paid_at === null) return order
    return {
      ...order,
      storageFee: storageFee(row.paid_at, now, this.storage),
      storageFreeUntil: new Date(storageFreeUntil(row.paid_at, this.storage)).toISOString(),
    }
  }
}
