import type { Address } from '@numisma/contracts/address'
import type { DeliveryApply } from '@numisma/contracts/delivery'
import { bookableDates, DEFAULT_SHIPPING_RATES, insuranceFee } from '@numisma/domain/delivery'
import { AUTO_COMPLETE_DAYS } from '@numisma/domain/order-status'
import type { Leg } from '@numisma/domain/postings'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import { CompletionJob } from './completion'
import type { DeliveryRepository, LockedOrder, NewShipment, ShipmentRow } from './repository'
import { DeliveryService } from './service'

/**
 * DeliveryService and CompletionJob with fakes: what an application checks and in which order (the
 * password outside the transaction, the orders locked before the clock is read), what it writes,
 * and every shipment move the order machine allows or refuses — without a database.
 */
const NOW = Date.UTC(2026, 10, 23, 2, 0, 0)
const DAY = 86_400_000
const USER = 7

const order = (overrides: Partial<LockedOrder> = {}): LockedOrder => ({
  id: 1,
  userId: USER,
  kind: 'mall',
  status: 'paid',
  quantity: 1,
  total: 10_000,
  dueAt: NOW - DAY,
  paidAt: NOW - DAY,
  ...overrides,
})

const address = (overrides: Partial<Address> = {}): Address => ({
  id: 3,
  name: '张三',
  mobile: '13800138000',
  countryId: 'CN',
  countryName: '中国',
  provinceId: '310000',
  provinceName: '上海市',
  cityId: '310101',
  cityName: '黄浦区',
  detail: '福州路1号',
  isDefault: true,
  createdAt: new Date(NOW).toISOString(),
  updatedAt: new Date(NOW).toISOString(),
  ...overrides,
})

const fails = async (promise: Promise<unknown>, code: string) => {
  const error = await promise.catch((e: unknown) => e)
  expect(error).toBeInstanceOf(AppError)
  expect((error as AppError).code).toBe(code)
}

function setup(
  options: {
    orders?: LockedOrder[]
    banned?: number[]
    balance?: number
    slotFree?: boolean
    password?: string
  } = {},
) {
  const log: string[] = []
  const clock = new FakeClock(NOW)
  const orders = new Map((options.orders ?? [order()]).map((o) => [o.id, { ...o }]))
  const shipments = new Map<number, ShipmentRow>()
  const shipmentOrders = new Map<number, number[]>()
  const posted: { kind: string; legs: readonly Leg[] }[] = []
  let balance = options.balance ?? 1_000_000

  const transact = (async (work: (tx: Tx) => Promise<unknown>) => {
    log.push('tx:begin')
    try {
      return await work({} as Tx)
    } finally {
      log.push('tx:end')
    }
  }) as Transact

  const repo: Pick<DeliveryRepository, keyof DeliveryRepository> = {
    lockOrders: (_tx, ids) => {
      log.push('orders:lock')
      return Promise.resolve(
        [...ids]
          .sort((a, b) => a - b)
          .flatMap((id) => (orders.has(id) ? [{ ...orders.get(id)! }] : [])),
      )
    },
    exportBanned: (_tx, ids) =>
      Promise.resolve(new Set(ids.filter((id) => (options.banned ?? []).includes(id)))),
    setOrderStatus: (_tx, ids, from, to) => {
      let moved = 0
      for (const id of ids) {
        const o = orders.get(id)
        if (o?.status === from) {
          o.status = to
          moved++
        }
      }
      return Promise.resolve(moved)
    },
    insertShipment: (_tx, s: NewShipment, ids) => {
      const id = shipments.size + 1
      shipments.set(id, {
        id,
        user_id: s.userId,
        method: s.method,
        status: 'applied',
        address: s.address,
        country_id: s.countryId,
        pickup_date: s.pickupDate,
        pickup_slot: s.pickupSlot,
        insured: s.insured ? 1 : 0,
        declared_value: s.declaredValue,
        shipping_fee: s.shippingFee,
        insurance_fee: s.insuranceFee,
        storage_fee: s.storageFee,
        total: s.total,
        transfer_id: null,
        carrier: null,
        tracking_no: null,
        applied_at: s.now,
        shipped_at: null,
        completed_at: null,
        auto_complete_at: null,
      })
      shipmentOrders.set(id, [...ids])
      log.push('shipment:insert')
      return Promise.resolve(id)
    },
    setTransfer: (_tx, id, transferId) => {
      shipments.get(id)!.transfer_id = transferId
      return Promise.resolve()
    },
    lockShipment: (_tx, id) => {
      log.push('shipment:lock')
      const s = shipments.get(id)
      return Promise.resolve(s && { ...s })
    },
    lockDue: (_tx, now) =>
      Promise.resolve(
        [...shipments.values()]
          .filter((s) => s.status === 'shipped' && (s.auto_complete_at ?? Infinity) <= now)
          .map((s) => ({ ...s })),
      ),
    markShipped: (_tx, id, shipped) => {
      const s = shipments.get(id)!
      if (s.status !== 'applied' || s.method !== 'express') return Promise.resolve(false)
      Object.assign(s, {
        status: 'shipped',
        carrier: shipped.carrier,
        tracking_no: shipped.trackingNo,
        shipped_at: shipped.now,
        auto_complete_at: shipped.autoCompleteAt,
      })
      return Promise.resolve(true)
    },
    markCompleted: (_tx, id, from, now) => {
      const s = shipments.get(id)!
      if (s.status !== from) return Promise.resolve(false)
      Object.assign(s, { status: 'completed', completed_at: now })
      return Promise.resolve(true)
    },
    orderIdsOf: (_tx, ids) =>
      Promise.resolve(new Map(ids.map((id) => [id, shipmentOrders.get(id) ?? []]))),
    shipment: (id) => Promise.resolve(shipments.get(id)),
    shipmentsOf: () => Promise.resolve({ rows: [], total: 0 }),
    staffShipments: () => Promise.resolve([]),
    storedOrderIds: () => Promise.resolve([]),
    orderRows: () => Promise.resolve([]),
  }

  const service = new DeliveryService({
    transact,
    clock,
    db: {} as Tx,
    repo,
    ledger: {
      lock: () => {
        log.push('balance:lock')
        return Promise.resolve()
      },
      balanceIn: () => Promise.resolve(balance),
      post: (_tx, _userId, transfer, legs) => {
        posted.push({ kind: transfer.kind, legs })
        balance += legs.find((l) => l.owner === 'user')?.amount ?? 0
        return Promise.resolve(posted.length)
      },
    },
    passwords: {
      verify: (_userId, password) => {
        log.push('password:verify')
        if (password === undefined) throw new AppError('PAY_PASSWORD_WRONG', { missing: true })
        if (password !== (options.password ?? '135790')) throw new AppError('PAY_PASSWORD_WRONG')
        return Promise.resolve()
      },
    },
    idempotency: {
      claim: () => Promise.resolve({ kind: 'new' }),
      complete: () => Promise.resolve(),
      committed: () => Promise.resolve(false),
    },
    addressOf: (userId, id) => {
      if (userId !== USER || id !== 3) throw new AppError('NOT_FOUND')
      return Promise.resolve(address())
    },
    claimSlot: () => {
      log.push('slot:claim')
      return Promise.resolve(options.slotFree ?? true)
    },
    bookedPlaces: () => Promise.resolve(new Map()),
  })
  const job = new CompletionJob({ transact, clock, repo })
  return { service, job, log, clock, orders, shipments, posted, balance: () => balance }
}

const express = (overrides: Partial<DeliveryApply> = {}): DeliveryApply => ({
  orderIds: [1],
  method: 'express',
  addressId: 3,
  insured: false,
  payPassword: '135790',
  ...overrides,
})

const pickup = (overrides: Partial<DeliveryApply> = {}): DeliveryApply => ({
  orderIds: [1],
  method: 'pickup',
  pickupDate: bookableDates(NOW)[0]!,
  pickupSlot: '10:00-12:00',
  insured: false,
  ...overrides,
})

describe('DeliveryService.apply', () => {
  it('checks the password before the transaction, locks the orders first, then the balance', async () => {
    const { service, log, posted, orders, shipments } = setup()
    const applied = await service.apply(USER, express({ insured: true }))
    const shipping = DEFAULT_SHIPPING_RATES.near.first
    expect(applied).toEqual({
      shipmentId: 1,
      method: 'express',
      shippingFee: shipping,
      insuranceFee: insuranceFee(10_000),
      storageFee: 0,
      total: shipping + insuranceFee(10_000),
    })
    expect(log).toEqual([
      'password:verify',
      'tx:begin',
      'orders:lock',
      'balance:lock',
      'shipment:insert',
      'tx:end',
    ])
    expect(posted).toEqual([
      {
        kind: 'delivery_fees',
        legs: [
          { owner: 'user', kind: 'balance', amount: -applied.total },
          { owner: 'platform', kind: 'platform_revenue', amount: applied.total },
        ],
      },
    ])
    expect(orders.get(1)!.status).toBe('delivery_applied')
    expect(JSON.parse(shipments.get(1)!.address!)).toEqual({
      name: '张三',
      mobile: '13800138000',
      country: '中国',
      province: '上海市',
      city: '黄浦区',
      detail: '福州路1号',
    })
  })

  it('lets a free pickup through without a password and without touching the ledger', async () => {
    const { service, log, posted } = setup()
    expect((await service.apply(USER, pickup())).total).toBe(0)
    expect(log).not.toContain('password:verify')
    expect(log).not.toContain('balance:lock')
    expect(log).toContain('slot:claim')
    expect(posted).toEqual([])
  })

  it('asks for the password once fees turn out due, after rolling the attempt back', async () => {
    const { service, log, shipments } = setup({ orders: [order({ paidAt: NOW - 40 * DAY })] })
    await fails(service.apply(USER, pickup()), 'PAY_PASSWORD_WRONG')
    expect(log).toEqual(['tx:begin', 'orders:lock', 'tx:end', 'password:verify'])
    expect(shipments.size).toBe(0)
  })

  it('refuses a wrong password before any lock', async () => {
    const { service, log } = setup()
    await fails(service.apply(USER, express({ payPassword: '000000' })), 'PAY_PASSWORD_WRONG')
    expect(log).toEqual(['password:verify'])
  })

  it("answers 404 for another user's order or address, ORDER_NOT_SHIPPABLE for one not paid", async () => {
    const { service } = setup({
      orders: [order(), order({ id: 2, userId: 8 }), order({ id: 3, status: 'pending_payment' })],
    })
    await fails(service.apply(USER, express({ orderIds: [1, 2] })), 'NOT_FOUND')
    await fails(service.apply(USER, express({ orderIds: [9] })), 'NOT_FOUND')
    await fails(service.apply(USER, express({ addressId: 4 })), 'NOT_FOUND')
    await fails(service.apply(USER, express({ orderIds: [1, 3] })), 'ORDER_NOT_SHIPPABLE')
    for (const status of ['delivery_applied', 'shipped', 'completed', 'cancelled', 'overdue']) {
      const { service: s } = setup({ orders: [order({ status })] })
      await fails(s.apply(USER, pickup()), 'ORDER_NOT_SHIPPABLE')
    }
  })

  it('refuses BALANCE_LOW, SLOT_FULL and SLOT_UNAVAILABLE without a shipment', async () => {
    const low = setup({ balance: 100 })
    await fails(low.service.apply(USER, express()), 'BALANCE_LOW')
    expect(low.shipments.size).toBe(0)
    const full = setup({ slotFree: false })
    await fails(full.service.apply(USER, pickup()), 'SLOT_FULL')
    expect(full.orders.get(1)!.status).toBe('paid')
    const today = setup()
    await fails(
      today.service.apply(USER, pickup({ pickupDate: new Date(NOW).toISOString().slice(0, 10) })),
      'SLOT_UNAVAILABLE',
    )
  })
})

describe('shipment moves (every legal and illegal one)', () => {
  async function applied(method: 'express' | 'pickup') {
    const world = setup()
    await world.service.apply(USER, method === 'express' ? express() : pickup())
    return world
  }

  it('express: ship once (15-day completion set), then confirm once', async () => {
    const { service, shipments, orders, clock } = await applied('express')
    await fails(service.confirmReceipt(USER, 1), 'ORDER_NOT_RECEIVABLE')
    await fails(service.handOver(1), 'ORDER_NOT_SHIPPABLE')
    const shipped = await service.ship(1, { carrier: '顺丰速运', trackingNo: 'SF123456' })
    expect(shipped).toEqual({ shipmentId: 1, status: 'shipped', orderIds: [1] })
    expect(shipments.get(1)!.auto_complete_at).toBe(clock.now() + AUTO_COMPLETE_DAYS * DAY)
    expect(orders.get(1)!.status).toBe('shipped')
    await fails(
      service.ship(1, { carrier: '顺丰速运', trackingNo: 'SF123456' }),
      'ORDER_NOT_SHIPPABLE',
    )
    await fails(service.handOver(1), 'ORDER_NOT_SHIPPABLE')
    await fails(service.confirmReceipt(8, 1), 'NOT_FOUND')
    expect((await service.confirmReceipt(USER, 1)).status).toBe('completed')
    expect(orders.get(1)!.status).toBe('completed')
    await fails(service.confirmReceipt(USER, 1), 'ORDER_NOT_RECEIVABLE')
    await fails(
      service.ship(1, { carrier: '顺丰速运', trackingNo: 'SF123456' }),
      'ORDER_NOT_SHIPPABLE',
    )
  })

  it('pickup: never shipped, handed over once, nothing to confirm', async () => {
    const { service, orders } = await applied('pickup')
    await fails(
      service.ship(1, { carrier: '顺丰速运', trackingNo: 'SF123456' }),
      'ORDER_NOT_SHIPPABLE',
    )
    await fails(service.confirmReceipt(USER, 1), 'ORDER_NOT_RECEIVABLE')
    expect((await service.handOver(1)).status).toBe('completed')
    expect(orders.get(1)!.status).toBe('completed')
    await fails(service.handOver(1), 'ORDER_NOT_SHIPPABLE')
    await fails(service.handOver(2), 'NOT_FOUND')
  })

  it('the completion job completes a shipped shipment only once its 15 days are up', async () => {
    const { service, job, clock, orders } = await applied('express')
    await service.ship(1, { carrier: '中国邮政', trackingNo: 'EMS-0001' })
    clock.advance(AUTO_COMPLETE_DAYS * DAY - 1)
    expect(await job.sweep()).toEqual([])
    clock.advance(1)
    expect(await job.sweep()).toEqual([1])
    expect(orders.get(1)!.status).toBe('completed')
    expect(await job.sweep()).toEqual([])
  })
})
