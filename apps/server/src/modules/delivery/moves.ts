import type { OrderStatus } from '@numisma/contracts/orders'
import type { ShipmentShip, ShipmentStatus } from '@numisma/contracts/delivery'
import {
  autoCompleteAt,
  type OrderEvent,
  type OrderFacts,
  transition,
} from '@numisma/domain/order-status'
import { AppError } from '../../platform/errors'
import type { Tx } from '../../platform/transactions'
import { kindOf, statusOf } from '../orders/mappers'
import type { DeliveryRepository, LockedOrder, ShipmentRow } from './repository'

export const methodOf = (value: string): 'express' | 'pickup' => {
  if (value === 'express' || value === 'pickup') return value
  throw new Error(`shipment has an unknown method: ${value}`)
}

/** What the order machine needs of an order that belongs to a shipment (or is about to). */
export function factsOf(
  order: Pick<LockedOrder, 'kind' | 'status' | 'dueAt'>,
  shipment: Pick<ShipmentRow, 'method' | 'shipped_at'> | null,
): OrderFacts {
  return {
    kind: kindOf(order.kind),
    status: statusOf(order.status),
    dueAt: order.dueAt,
    shippedAt: shipment?.shipped_at ?? null,
    deliveryMethod: shipment ? methodOf(shipment.method) : null,
    paidOffline: false,
  }
}

export type ShipmentEvent = Extract<
  OrderEvent,
  'ship' | 'handOver' | 'confirmReceipt' | 'autoComplete'
>
export type MoveRefusal = 'ORDER_NOT_SHIPPABLE' | 'ORDER_NOT_RECEIVABLE' | 'ORDER_NOT_DUE'

/** The shipment status each event starts from. */
const FROM: Record<ShipmentEvent, ShipmentStatus> = {
  ship: 'applied',
  handOver: 'applied',
  confirmReceipt: 'shipped',
  autoComplete: 'shipped',
}

const asMoveRefusal = (code: string, fallback: MoveRefusal): MoveRefusal =>
  code === 'ORDER_NOT_SHIPPABLE' || code === 'ORDER_NOT_RECEIVABLE' || code === 'ORDER_NOT_DUE'
    ? code
    : fallback

/**
 * Applies `event` to a locked shipment and its locked orders: every order is judged by the order
 * machine (`transition`), and the shipment and its orders change only if each may move — the
 * shipment conditionally on the status it was read with, so a second decision (staff twice, the
 * buyer racing the completion job) changes nothing and gets the machine's code. Returns the
 * shipment's new status, or the refusal (nothing written then).
 */
export async function moveShipment(
  tx: Tx,
  repo: Pick<DeliveryRepository, 'markShipped' | 'markCompleted' | 'setOrderStatus'>,
  move: {
    shipment: ShipmentRow
    orders: readonly LockedOrder[]
    event: ShipmentEvent
    now: number
    details?: ShipmentShip | undefined
  },
): Promise<{ ok: true; status: ShipmentStatus } | { ok: false; code: MoveRefusal }> {
  const { shipment, orders, event, now } = move
  const refusal: MoveRefusal =
    event === 'ship' || event === 'handOver' ? 'ORDER_NOT_SHIPPABLE' : 'ORDER_NOT_RECEIVABLE'
  if (shipment.status !== FROM[event] || orders.length === 0) return { ok: false, code: refusal }
  let to: OrderStatus | null = null
  for (const order of orders) {
    const result = transition(factsOf(order, shipment), event, now)
    if (!result.ok) return { ok: false, code: asMoveRefusal(result.code, refusal) }
    to = result.status
  }
  const from = statusOf(orders[0]!.status)
  if (to === null || orders.some((o) => o.status !== from)) return { ok: false, code: refusal }
  const changed =
    event === 'ship'
      ? await repo.markShipped(tx, shipment.id, {
          carrier: move.details?.carrier ?? '',
          trackingNo: move.details?.trackingNo ?? '',
          now,
          autoCompleteAt: autoCompleteAt(now),
        })
      : await repo.markCompleted(tx, shipment.id, shipment.status, now)
  if (!changed) return { ok: false, code: refusal }
  const ids = orders.map((o) => o.id)
  // Under the row locks every order moves; a shortfall would be a broken invariant: roll back.
  if ((await repo.setOrderStatus(tx, ids, from, to)) !== ids.length) {
    throw new AppError(refusal, { shipmentId: shipment.id })
  }
  return { ok: true, status: event === 'ship' ? 'shipped' : 'completed' }
}
