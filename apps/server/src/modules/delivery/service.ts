import type { Address } from '@numisma/contracts/address'
import {
  type DeliveryApplied,
  type DeliveryApply,
  type DeliveryInfo,
  type DeliveryQuote,
  type ExitBan,
  type KeepFee,
  PICKUP_SLOTS,
  type PickupSlot,
  type ReceiveDetail,
  type Shipment,
  type ShipmentAddress,
  type ShipmentChanged,
  type ShipmentShip,
  type ShipmentsPage,
  type ShipmentStatus,
  type StaffShipment,
  type StaffShipmentsQuery,
  type StoredOrder,
} from '@numisma/contracts/delivery'
import {
  bookableDates,
  canShipTo,
  DEFAULT_DELIVERY_RATES,
  DEFAULT_PICKUP_RULES,
  type DeliveryRates,
  type Destination,
  insuranceFee,
  type PickupRules,
  quoteDelivery,
  remainingPlaces,
  slotRefusal,
  storageFee,
  storageFreeUntil,
} from '@numisma/domain/delivery'
import { type OrderEvent, transition } from '@numisma/domain/order-status'
import { payDeliveryFees } from '@numisma/domain/postings'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { LedgerService } from '../ledger/service'
import { toOrder } from '../orders/mappers'
import type { PayPasswordCheck } from '../payments/ports'
import type { DeliveryOrderRow, DeliveryRepository, ShipmentRow } from './repository'
import { factsOf, methodOf, moveShipment } from './moves'
import { slotKey } from './slot-counts'

/** Where pickups and counter payments happen, until an operator setting says otherwise. */
export const DEFAULT_COUNTER_ADDRESS = '上海市黄浦区 泉藏拍卖服务柜台'

/** What staff list at most in one answer. */
const STAFF_LIST_LIMIT = 200

export interface DeliveryOptions {
  rates: DeliveryRates
  pickup: PickupRules
  counterAddress: string
}

export interface DeliveryDeps {
  transact: Transact
  clock: Clock
  repo: Pick<DeliveryRepository, keyof DeliveryRepository>
  ledger: Pick<LedgerService, 'post' | 'lock' | 'balanceIn'>
  /** The payment password check doPay uses (modules/account's PayPasswordVerifier). */
  passwords: PayPasswordCheck
  idempotency: Pick<IdempotencyStore, 'claim' | 'complete' | 'committed'>
  /** One of the user's addresses (modules/address); another user's is NOT_FOUND. */
  addressOf(userId: number, addressId: number): Promise<Address>
  /** Takes one place in a counter slot if fewer than `capacity` are taken (slot-counts.ts). */
  claimSlot(tx: Tx, date: string, slot: string, capacity: number): Promise<boolean>
  /** Places taken per `slotKey(date, slot)` on these dates (slot-counts.ts). */
  bookedPlaces(tx: Tx, dates: readonly string[]): Promise<Map<string, number>>
  /** Reads outside a transaction. */
  db: Tx
  options?: Partial<DeliveryOptions>
  log?: FastifyBaseLogger
}

/** Thrown to roll back an application whose fees need the password nobody has checked yet. */
class NeedsPassword extends Error {}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

const shipmentStatusOf = (value: string): ShipmentStatus => {
  if (value === 'applied' || value === 'shipped' || value === 'completed') return value
  throw new Error(`shipment has an unknown status: ${value}`)
}

const slotOf = (value: string | null): PickupSlot | null =>
  PICKUP_SLOTS.find((s) => s === value) ?? null

function parseAddress(json: string | null): ShipmentAddress | null {
  if (json === null) return null
  return JSON.parse(json) as ShipmentAddress
}

/**
 * Delivery of paid goods in storage (DESIGN §6, §9 "Delivery"; spec §7 "Orders"): the buyer
 * applies for one shipment of several paid orders — express to one of their addresses, or pickup
 * at the counter on a bookable day and slot — and pays its fees from the balance there and then
 * (docs/decisions/015); staff ship it (carrier and tracking number) or hand it over; the buyer
 * confirms receipt, or the completion job does 15 days after shipping. Every rule is
 * packages/domain (`transition`, `quoteDelivery`, `canShipTo`, `slotRefusal`); this service
 * applies them under row locks — the orders for an application (then the slot, then the balance),
 * the shipment for what follows — reads the clock after the locks and claims the
 * `Idempotency-Key` after them too.
 */
export class DeliveryService {
  private readonly options: DeliveryOptions

  constructor(private readonly deps: DeliveryDeps) {
    this.options = {
      rates: DEFAULT_DELIVERY_RATES,
      pickup: DEFAULT_PICKUP_RULES,
      counterAddress: DEFAULT_COUNTER_ADDRESS,
      ...deps.options,
    }
  }

  // Applying.

  /** `POST /api/user/logistic/delivery/apply`. */
  async apply(
    userId: number,
    request: DeliveryApply,
    options: { idempotencyKey?: string | undefined } = {},
  ): Promise<DeliveryApplied> {
    const { idempotency, passwords } = this.deps
    const key = options.idempotencyKey
    // The password takes no part: a retry with the same key replays whatever was typed.
    const hash = requestHash({
      orderIds: request.orderIds,
      method: request.method,
      addressId: request.addressId ?? null,
      pickupDate: request.pickupDate ?? null,
      pickupSlot: request.pickupSlot ?? null,
      insured: request.insured,
    })
    // The address as it is now (its own module, outside our transaction): the shipment keeps it.
    const address =
      request.method === 'express' && request.addressId !== undefined
        ? await this.deps.addressOf(userId, request.addressId)
        : null
    const run = (verified: boolean) =>
      this.deps.transact((tx) => this.applyIn(tx, userId, request, address, verified, key, hash))
    const attempt = (verified: boolean) =>
      run(verified).catch((error: unknown) => {
        if (error instanceof NeedsPassword) return undefined
        throw error
      })
    // A retry of an application already decided replays it without the password.
    if (key && (await idempotency.committed(userId, key))) {
      const replayed = await attempt(false)
      if (replayed) return replayed
    }
    // Typed: checked first, before any lock (argon2 is slow; a wrong try counts even if refused).
    if (request.payPassword !== undefined) {
      await passwords.verify(userId, request.payPassword)
      return run(true)
    }
    // None typed: free applications go through; one with fees is told what doPay tells.
    const free = await attempt(false)
    if (free) return free
    await passwords.verify(userId, undefined)
    return run(true)
  }

  private async applyIn(
    tx: Tx,
    userId: number,
    request: DeliveryApply,
    address: Address | null,
    verified: boolean,
    key: string | undefined,
    hash: string,
  ): Promise<DeliveryApplied> {
    const { repo, clock, idempotency, ledger } = this.deps
    const { rates, pickup } = this.options
    const locked = await repo.lockOrders(tx, request.orderIds)
    const now = clock.now()
    if (key) {
      const claim = await idempotency.claim<DeliveryApplied>(tx, userId, key, hash, now)
      if (claim.kind === 'replay') return claim.result
    }
    const orders = this.own(locked, request.orderIds, userId)
    const refused = orders
      .filter((o) => !transition(factsOf(o, null), 'applyDelivery', now).ok)
      .map((o) => o.id)
    if (refused.length > 0) throw new AppError('ORDER_NOT_SHIPPABLE', { orderIds: refused })

    let destination: Destination | null = null
    if (request.method === 'express') {
      if (!address) throw new AppError('VALIDATION_FAILED', { field: 'addressId' })
      destination = { countryCode: address.countryId, provinceCode: address.provinceId }
      const banned = await repo.exportBanned(tx, request.orderIds)
      const items = orders.map((o) => ({ exportBanned: banned.has(o.id) }))
      if (canShipTo(items, destination.countryCode, destination.provinceCode) !== null) {
        throw new AppError('EXIT_BANNED', { orderIds: [...banned].sort((a, b) => a - b) })
      }
    } else {
      const refusal = slotRefusal(
        request.pickupDate ?? '',
        request.pickupSlot ?? '',
        0,
        now,
        pickup,
      )
      if (refusal) throw new AppError(refusal, { date: request.pickupDate })
    }

    const declaredValue = orders.reduce((sum, o) => sum + o.total, 0)
    const quote = quoteDelivery(
      {
        method: request.method,
        destination,
        pieces: orders.reduce((sum, o) => sum + Math.max(1, o.quantity), 0),
        insured: request.method === 'express' && request.insured,
        declaredValue,
        paidAts: orders.map((o) => o.paidAt ?? now),
      },
      now,
      rates,
    )
    // Rolls back: the caller checks the password, then applies again.
    if (quote.total > 0 && !verified) throw new NeedsPassword()

    // Locks in order: the orders (above), the slot's row, then the balance.
    if (request.method === 'pickup') {
      const claimed = await this.deps.claimSlot(
        tx,
        request.pickupDate!,
        request.pickupSlot!,
        pickup.capacityPerSlot,
      )
      if (!claimed) throw new AppError('SLOT_FULL', { date: request.pickupDate })
    }
    if (quote.total > 0) {
      await ledger.lock(tx, userId, ['balance'])
      const balance = await ledger.balanceIn(tx, userId, 'balance')
      if (balance < quote.total) {
        throw new AppError('BALANCE_LOW', { balance, amount: quote.total })
      }
    }
    const ids = orders.map((o) => o.id)
    // Conditional on `paid`: under the row locks every one moves; the check is the last word.
    if ((await repo.setOrderStatus(tx, ids, 'paid', 'delivery_applied')) !== ids.length) {
      throw new AppError('ORDER_NOT_SHIPPABLE', { orderIds: ids })
    }
    const shipmentId = await repo.insertShipment(
      tx,
      {
        userId,
        method: request.method,
        address: address ? JSON.stringify(snapshotOf(address)) : null,
        countryId: address?.countryId ?? null,
        pickupDate: request.method === 'pickup' ? request.pickupDate! : null,
        pickupSlot: request.method === 'pickup' ? request.pickupSlot! : null,
        insured: request.method === 'express' && request.insured,
        declaredValue,
        shippingFee: quote.shippingFee,
        insuranceFee: quote.insuranceFee,
        storageFee: quote.storageFee,
        total: quote.total,
        transferId: null,
        now,
      },
      ids,
    )
    if (quote.total > 0) {
      const transferId = await ledger.post(
        tx,
        userId,
        { kind: 'delivery_fees', memo: `delivery fees shipment ${shipmentId}`, now },
        payDeliveryFees(quote.total),
      )
      await repo.setTransfer(tx, shipmentId, transferId)
    }
    const result: DeliveryApplied = {
      shipmentId,
      method: request.method,
      shippingFee: quote.shippingFee,
      insuranceFee: quote.insuranceFee,
      storageFee: quote.storageFee,
      total: quote.total,
    }
    if (key) await idempotency.complete(tx, userId, key, result)
    return result
  }

  /** The named orders, each the caller's: a missing or someone else's order is NOT_FOUND. */
  private own<T extends { id: number; userId: number }>(
    rows: readonly T[],
    orderIds: readonly number[],
    userId: number,
  ): T[] {
    const byId = new Map(rows.map((o) => [o.id, o]))
    const missing = orderIds.filter((id) => byId.get(id)?.userId !== userId)
    if (missing.length > 0) throw new AppError('NOT_FOUND', { orderIds: missing })
    return orderIds.map((id) => byId.get(id)!)
  }

  // The apply-to-ship screen and its checks.

  /** `GET /api/user/logistic/delivery/query`. */
  async info(
    userId: number,
    query: { orderIds?: number[] | undefined; addressId?: number | undefined; insured?: boolean },
  ): Promise<DeliveryInfo> {
    const { repo, clock } = this.deps
    const { rates, counterAddress } = this.options
    const now = clock.now()
    const stored = await this.ordersOf(await repo.storedOrderIds(userId))
    const orders: StoredOrder[] = stored.map(({ order, row }) => ({
      order,
      storageFreeUntil: new Date(storageFreeUntil(row.paid_at ?? now, rates.storage)).toISOString(),
      storageFee: storageFee(row.paid_at ?? now, now, rates.storage),
      exportBanned: isBanned(row),
    }))
    return {
      orders,
      quote: query.orderIds ? await this.quote(userId, query.orderIds, query, now) : null,
      pickupDays: await this.pickupDays(now),
      counterAddress,
      rates: {
        insuranceRateBps: rates.insurance.rateBps,
        insuranceMinimum: rates.insurance.minimum,
        storageFreeDays: rates.storage.freeDays,
        storageFeePerDay: rates.storage.perDay,
      },
    }
  }

  private async quote(
    userId: number,
    orderIds: number[],
    query: { addressId?: number | undefined; insured?: boolean },
    now: number,
  ): Promise<DeliveryQuote> {
    const rows = this.own(
      (await this.deps.repo.orderRows(orderIds)).map((r) => ({ ...r, userId: r.user_id })),
      orderIds,
      userId,
    )
    const refused = rows.filter((r) => r.status !== 'paid').map((r) => r.id)
    if (refused.length > 0) throw new AppError('ORDER_NOT_SHIPPABLE', { orderIds: refused })
    const address =
      query.addressId === undefined ? null : await this.deps.addressOf(userId, query.addressId)
    const destination: Destination | null = address && {
      countryCode: address.countryId,
      provinceCode: address.provinceId,
    }
    const declaredValue = rows.reduce((sum, r) => sum + r.total, 0)
    const quote = quoteDelivery(
      {
        method: destination ? 'express' : 'pickup',
        destination,
        pieces: rows.reduce((sum, r) => sum + Math.max(1, r.quantity), 0),
        insured: destination !== null && (query.insured ?? false),
        declaredValue,
        paidAts: rows.map((r) => r.paid_at ?? now),
      },
      now,
      this.options.rates,
    )
    return {
      orderIds,
      declaredValue,
      shippingFee: destination ? quote.shippingFee : null,
      insuranceFee: quote.insuranceFee,
      storageFee: quote.storageFee,
      total: quote.total,
      exitBanned:
        destination !== null &&
        canShipTo(
          rows.map((r) => ({ exportBanned: isBanned(r) })),
          destination.countryCode,
          destination.provinceCode,
        ) !== null,
    }
  }

  /** The bookable days ahead with the places left in each slot (pickups and cash bookings). */
  private async pickupDays(now: number): Promise<DeliveryInfo['pickupDays']> {
    const { pickup } = this.options
    const dates = bookableDates(now, pickup)
    const booked = await this.deps.bookedPlaces(this.deps.db, dates)
    return dates.map((date) => ({
      date,
      slots: PICKUP_SLOTS.map((slot) => ({
        slot,
        remaining: remainingPlaces(booked.get(slotKey(date, slot)) ?? 0, pickup),
      })),
    }))
  }

  /** `GET /user/3_3/logistic/queryKeepFee?value=`. */
  keepFee(value: number): KeepFee {
    const { insurance } = this.options.rates
    return {
      value,
      fee: insuranceFee(value, insurance),
      rateBps: insurance.rateBps,
      minimum: insurance.minimum,
    }
  }

  /** `GET /user/3_3/logistic/queryExitBan?orderIds=&countryId=&provinceId=`. */
  async exitBan(
    userId: number,
    query: { orderIds: number[]; countryId: string; provinceId?: string | undefined },
  ): Promise<ExitBan> {
    const rows = this.own(
      (await this.deps.repo.orderRows(query.orderIds)).map((r) => ({ ...r, userId: r.user_id })),
      query.orderIds,
      userId,
    )
    const bannedOrderIds = rows
      .filter(
        (r) =>
          canShipTo([{ exportBanned: isBanned(r) }], query.countryId, query.provinceId ?? null) !==
          null,
      )
      .map((r) => r.id)
    return { allowed: bannedOrderIds.length === 0, bannedOrderIds }
  }

  // Shipments as their buyer sees them.

  /** `GET /api/user/logistic/waiting`: shipped, waiting to be received. */
  waiting(userId: number, page: { page: number; pageSize: number }): Promise<ShipmentsPage> {
    return this.page(userId, ['shipped'], page)
  }

  /** `GET /api/user/logistic/completed`: every shipment and pickup, newest first. */
  records(userId: number, page: { page: number; pageSize: number }): Promise<ShipmentsPage> {
    return this.page(userId, ['applied', 'shipped', 'completed'], page)
  }

  private async page(
    userId: number,
    statuses: readonly ShipmentStatus[],
    page: { page: number; pageSize: number },
  ): Promise<ShipmentsPage> {
    const { rows, total } = await this.deps.repo.shipmentsOf(userId, statuses, {
      offset: (page.page - 1) * page.pageSize,
      limit: page.pageSize,
    })
    return { data: await this.toShipments(rows), page: page.page, pageSize: page.pageSize, total }
  }

  /** `GET /user/{id}/@logistic`: one of the caller's shipments (another user's is NOT_FOUND). */
  async shipment(userId: number, shipmentId: number): Promise<Shipment> {
    const row = await this.deps.repo.shipment(shipmentId)
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', { shipmentId })
    return (await this.toShipments([row]))[0]!
  }

  /** `GET /user/queryAuctionList?shipmentId=`: a shipment and its orders in full. */
  async receiveDetail(userId: number, shipmentId: number): Promise<ReceiveDetail> {
    const row = await this.deps.repo.shipment(shipmentId)
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', { shipmentId })
    const orderIds = (await this.deps.repo.orderIdsOf(this.deps.db, [row.id])).get(row.id) ?? []
    const orders = await this.ordersOf(orderIds)
    return {
      shipment: toShipment(
        row,
        orderIds,
        orders.flatMap((o) => o.order.items),
      ),
      orders: orders.map((o) => o.order),
    }
  }

  // Changes after the application: staff, the buyer, the completion job.

  /** `POST /user/upLogisticStatus`: the buyer confirms receipt of a shipped shipment. */
  confirmReceipt(userId: number, shipmentId: number): Promise<ShipmentChanged> {
    return this.change(shipmentId, 'confirmReceipt', { ownerId: userId })
  }

  /** Staff `POST /admin/shipments/{id}/ship`: an applied express shipment leaves. */
  ship(shipmentId: number, details: ShipmentShip): Promise<ShipmentChanged> {
    return this.change(shipmentId, 'ship', { details })
  }

  /** Staff `POST /admin/shipments/{id}/complete`: an applied pickup is handed over. */
  handOver(shipmentId: number): Promise<ShipmentChanged> {
    return this.change(shipmentId, 'handOver', {})
  }

  /**
   * One shipment moved by `event`, with its orders, in one transaction: the shipment locked, then
   * its orders; every order judged by `transition` and the shipment's status changed only if
   * each of them may move. A second decision finds the status changed and is refused with the
   * machine's code (ORDER_NOT_SHIPPABLE, ORDER_NOT_RECEIVABLE).
   */
  private change(
    shipmentId: number,
    event: Extract<OrderEvent, 'ship' | 'handOver' | 'confirmReceipt'>,
    who: { ownerId?: number; details?: ShipmentShip },
  ): Promise<ShipmentChanged> {
    const { repo, clock } = this.deps
    return this.deps.transact(async (tx) => {
      const shipment = await repo.lockShipment(tx, shipmentId)
      if (!shipment || (who.ownerId !== undefined && shipment.user_id !== who.ownerId)) {
        throw new AppError('NOT_FOUND', { shipmentId })
      }
      const orderIds = (await repo.orderIdsOf(tx, [shipmentId])).get(shipmentId) ?? []
      const orders = await repo.lockOrders(tx, orderIds)
      const now = clock.now()
      const moved = await moveShipment(tx, repo, {
        shipment,
        orders,
        event,
        now,
        details: who.details,
      })
      if (!moved.ok) throw new AppError(moved.code, { shipmentId, status: shipment.status })
      return { shipmentId, status: moved.status, orderIds }
    })
  }

  /** Staff `GET /admin/shipments?status=&method=`. */
  async staffShipments(query: StaffShipmentsQuery): Promise<StaffShipment[]> {
    const rows = await this.deps.repo.staffShipments(query, STAFF_LIST_LIMIT)
    const shipments = await this.toShipments(rows)
    return shipments.map((shipment, i) => ({
      ...shipment,
      userId: rows[i]!.user_id,
      userDisplay: rows[i]!.display,
      userMobile: rows[i]!.mobile,
    }))
  }

  // Mapping.

  private async ordersOf(orderIds: readonly number[]) {
    const rows = await this.deps.repo.orderRows(orderIds)
    const byId = new Map(rows.map((r) => [r.id, r]))
    return orderIds
      .map((id) => byId.get(id))
      .filter((r): r is DeliveryOrderRow => r !== undefined)
      .map((row) => ({ row, order: toOrder(row) }))
  }

  private async toShipments(rows: readonly ShipmentRow[]): Promise<Shipment[]> {
    const byShipment = await this.deps.repo.orderIdsOf(
      this.deps.db,
      rows.map((r) => r.id),
    )
    const orders = await this.ordersOf([...byShipment.values()].flat())
    const byOrder = new Map(orders.map((o) => [o.order.id, o.order]))
    return rows.map((row) => {
      const ids = byShipment.get(row.id) ?? []
      return toShipment(
        row,
        ids,
        ids.flatMap((id) => byOrder.get(id)?.items ?? []),
      )
    })
  }
}

const isBanned = (row: Pick<DeliveryOrderRow, 'lot_export_banned' | 'mall_export_banned'>) =>
  row.lot_export_banned === 1 || row.mall_export_banned === 1

function snapshotOf(address: Address): ShipmentAddress {
  return {
    name: address.name,
    mobile: address.mobile,
    country: address.countryName,
    province: address.provinceName ?? '',
    city: address.cityName ?? '',
    detail: address.detail,
  }
}

function toShipment(row: ShipmentRow, orderIds: number[], items: Shipment['items']): Shipment {
  return {
    id: row.id,
    method: methodOf(row.method),
    status: shipmentStatusOf(row.status),
    orderIds,
    items,
    address: parseAddress(row.address),
    pickupDate: row.pickup_date,
    pickupSlot: slotOf(row.pickup_slot),
    carrier: row.carrier,
    trackingNo: row.tracking_no,
    insured: row.insured === 1,
    declaredValue: row.declared_value,
    shippingFee: row.shipping_fee,
    insuranceFee: row.insurance_fee,
    storageFee: row.storage_fee,
    total: row.total,
    appliedAt: new Date(row.applied_at).toISOString(),
    shippedAt: iso(row.shipped_at),
    completedAt: iso(row.completed_at),
    autoCompleteAt: row.status === 'shipped' ? iso(row.auto_complete_at) : null,
  }
}
