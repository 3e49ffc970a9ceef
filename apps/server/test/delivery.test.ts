import type {
  DeliveryApplied,
  DeliveryInfo,
  ExitBan,
  KeepFee,
  ReceiveDetail,
  Shipment,
  ShipmentChanged,
  ShipmentsPage,
  StaffShipment,
} from '@numisma/contracts/delivery'
import { bookableDates, DEFAULT_SHIPPING_RATES, insuranceFee } from '@numisma/domain/delivery'
import { AUTO_COMPLETE_DAYS } from '@numisma/domain/order-status'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CompletionJob } from '../src/modules/delivery/completion'
import { bookedPlaces, claimSlotPlace, slotKey } from '../src/modules/delivery/slot-counts'
import { transactor } from '../src/platform/transactions'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { expectLedgerSound } from './helpers/ledger'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { winLot } from './helpers/money'
import { balanceOf, doPay, fundBalance, PAY_PASSWORD, payer } from './helpers/payments'

const databases = await testDatabases()
const DAY = 86_400_000

const BEIJING = { countryId: 'CN', provinceId: '110000', cityId: '110105' }
const HONG_KONG: Record<string, string> = {
  countryId: 'CN',
  provinceId: '810000',
  cityId: '810001',
}
const JAPAN: Record<string, string> = { countryId: 'JP' }

const codeOf = (res: LightMyRequestResponse) => res.json<{ code?: string }>().code

describe.each(databases)('delivery on $name', (target) => {
  let t: TestApp
  let admin: StaffCall

  beforeAll(async () => {
    t = await createTestApp(target)
    admin = await staffCaller(t)
  })
  afterAll(() => t.close())
  // Tests move the clock past the staff session's 12 hours: sign staff in afresh for each.
  beforeEach(async () => {
    admin = await staffCaller(t)
  })

  /** A buyer with the test payment password and `funds` fen on their balance. */
  async function buyer(funds = 1_000_000): Promise<Session> {
    const session = await payer(t)
    if (funds > 0) await fundBalance(t, session.userId, funds)
    return session
  }

  /** A mall order of `quantity` units bought and paid from the balance through doPay. */
  async function paidMallOrder(
    as: Session,
    options: { price?: number; quantity?: number; exportBanned?: boolean } = {},
  ): Promise<number> {
    const item = await createMallItem(admin, { price: options.price ?? 10_000, stock: 100 })
    if (options.exportBanned) {
      await t.database.db
        .updateTable('mall_items')
        .set({ export_banned: 1 })
        .where('id', '=', item.id)
        .execute()
    }
    const placed = await buy(t, as, { productNo: item.productNo, quantity: options.quantity ?? 1 })
    const orderId = placed.json<{ data: { orderId: number } }>().data.orderId
    expect(orderId, placed.body).toBeGreaterThan(0)
    const paid = await doPay(t, as, {
      orderIds: [orderId],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    return orderId
  }

  async function addressOf(as: Session, region: Record<string, string>): Promise<number> {
    const res = await t.call({
      method: 'POST',
      path: '/user/address',
      as,
      body: {
        name: '张三',
        mobile: region.countryId === 'CN' ? '13800138000' : '09012345678',
        detail: '建国路88号SOHO现代城',
        ...region,
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: { id: number } }>().data.id
  }

  const apply = (as: Session, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.call({
      method: 'POST',
      path: '/api/user/logistic/delivery/apply',
      as,
      body,
      ...(headers ? { headers } : {}),
    })

  const get = (as: Session, path: string) => t.call({ method: 'GET', path, as })

  const statusOf = async (orderId: number) =>
    (
      await t.database.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).status

  const transfersOf = async (userId: string) =>
    t.database.db
      .selectFrom('ledger_transfers')
      .innerJoin('ledger_postings', 'ledger_postings.transfer_id', 'ledger_transfers.id')
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_postings.account_id')
      .select(['ledger_transfers.id', 'ledger_postings.amount'])
      .where('ledger_transfers.kind', '=', 'delivery_fees')
      .where('ledger_accounts.user_id', '=', Number(userId))
      .execute()

  const firstSlot = () => ({
    pickupDate: bookableDates(t.clock.now())[0]!,
    pickupSlot: '10:00-12:00',
  })

  it('applies express for two paid orders: one shipment, the fees taken from the balance once', async () => {
    const me = await buyer(100_000)
    const a = await paidMallOrder(me, { price: 10_000 })
    const b = await paidMallOrder(me, { price: 5_000, quantity: 2 })
    const addressId = await addressOf(me, BEIJING)
    const before = await balanceOf(t, me.userId)

    const res = await apply(me, {
      orderIds: [a, b],
      method: 'express',
      addressId,
      insured: true,
      payPassword: PAY_PASSWORD,
    })
    expect(res.statusCode, res.body).toBe(200)
    const applied = res.json<{ data: DeliveryApplied }>().data
    const shipping =
      DEFAULT_SHIPPING_RATES.standard.first + 2 * DEFAULT_SHIPPING_RATES.standard.additional
    const insurance = insuranceFee(20_000)
    expect(applied).toMatchObject({
      method: 'express',
      shippingFee: shipping,
      insuranceFee: insurance,
      storageFee: 0,
      total: shipping + insurance,
    })
    expect(await balanceOf(t, me.userId)).toBe(before - applied.total)
    expect(await transfersOf(me.userId)).toEqual([
      expect.objectContaining({ amount: -applied.total }),
    ])
    expect(await statusOf(a)).toBe('delivery_applied')
    expect(await statusOf(b)).toBe('delivery_applied')

    const detail = await get(me, `/user/${applied.shipmentId}/@logistic`)
    expect(detail.statusCode, detail.body).toBe(200)
    const shipment = detail.json<{ data: Shipment }>().data
    expect(shipment).toMatchObject({
      id: applied.shipmentId,
      method: 'express',
      status: 'applied',
      orderIds: [a, b].sort((x, y) => x - y),
      insured: true,
      declaredValue: 20_000,
      address: { name: '张三', province: expect.any(String), detail: '建国路88号SOHO现代城' },
      pickupDate: null,
      carrier: null,
      autoCompleteAt: null,
    })
    expect(shipment.items).toHaveLength(2)
    await expectLedgerSound(t.database)
  })

  it('needs the payment password for fees, refuses a wrong one and a low balance, writing nothing', async () => {
    const me = await buyer(20_000)
    const orderId = await paidMallOrder(me, { price: 10_000 })
    const addressId = await addressOf(me, BEIJING)
    const body = { orderIds: [orderId], method: 'express', addressId }

    const missing = await apply(me, body)
    expect(missing.statusCode).toBe(400)
    expect(codeOf(missing)).toBe('PAY_PASSWORD_WRONG')
    const wrong = await apply(me, { ...body, payPassword: '000000' })
    expect(codeOf(wrong)).toBe('PAY_PASSWORD_WRONG')
    // 20 000 − 10 000 paid leaves 10 000; shipping 1 800 + insurance 500: drain it first.
    await t.call({
      method: 'PATCH',
      path: `/user/${me.userId}/@finance`,
      as: me,
      body: { amount: 9_000 },
    })
    const low = await apply(me, { ...body, insured: true, payPassword: PAY_PASSWORD })
    expect(low.statusCode, low.body).toBe(409)
    expect(codeOf(low)).toBe('BALANCE_LOW')
    expect(await statusOf(orderId)).toBe('paid')
    expect(
      await t.database.db
        .selectFrom('shipments')
        .select('id')
        .where('user_id', '=', Number(me.userId))
        .execute(),
    ).toEqual([])
    await expectLedgerSound(t.database)
  })

  it('refuses a user without a payment password when there are fees (PAY_PASSWORD_NOT_SET)', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    const addressId = await addressOf(me, BEIJING)
    await t.database.db
      .deleteFrom('pay_passwords')
      .where('user_id', '=', Number(me.userId))
      .execute()
    const res = await apply(me, { orderIds: [orderId], method: 'express', addressId })
    expect(codeOf(res)).toBe('PAY_PASSWORD_NOT_SET')
  })

  it('applies pickup within the free storage days without a password, taking a slot place', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    const slot = firstSlot()
    const res = await apply(me, { orderIds: [orderId], method: 'pickup', ...slot })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ data: DeliveryApplied }>().data).toMatchObject({
      method: 'pickup',
      shippingFee: 0,
      insuranceFee: 0,
      storageFee: 0,
      total: 0,
    })
    expect(await transfersOf(me.userId)).toEqual([])
    const booked = await bookedPlaces(t.database.db, [slot.pickupDate])
    expect(booked.get(slotKey(slot.pickupDate, slot.pickupSlot))).toBeGreaterThanOrEqual(1)
    const info = (await get(me, '/api/user/logistic/delivery/query')).json<{ data: DeliveryInfo }>()
      .data
    const day = info.pickupDays.find((d) => d.date === slot.pickupDate)!
    expect(day.slots.find((s) => s.slot === slot.pickupSlot)!.remaining).toBe(
      10 - booked.get(slotKey(slot.pickupDate, slot.pickupSlot))!,
    )
  })

  it('charges storage beyond the free days, on a pickup too', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    // Paid 35 days ago (the user's session would not outlive moving the clock that far).
    const paidAt = t.clock.now() - 35 * DAY
    await t.database.db
      .updateTable('orders')
      .set({ paid_at: paidAt })
      .where('id', '=', orderId)
      .execute()
    const info = (await get(me, `/api/user/logistic/delivery/query?orderIds=${orderId}`)).json<{
      data: DeliveryInfo
    }>().data
    const stored = info.orders.find((o) => o.order.id === orderId)!
    expect(stored.storageFee).toBeGreaterThan(0)
    expect(info.quote).toMatchObject({
      orderIds: [orderId],
      shippingFee: null,
      total: stored.storageFee,
    })
    const slot = firstSlot()
    const without = await apply(me, { orderIds: [orderId], method: 'pickup', ...slot })
    expect(codeOf(without)).toBe('PAY_PASSWORD_WRONG')
    const res = await apply(me, {
      orderIds: [orderId],
      method: 'pickup',
      ...slot,
      payPassword: PAY_PASSWORD,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ data: DeliveryApplied }>().data).toMatchObject({
      storageFee: stored.storageFee,
      total: stored.storageFee,
    })
    await expectLedgerSound(t.database)
  })

  it('refuses an unbookable date or slot (SLOT_UNAVAILABLE)', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    const today = new Date(t.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10)
    const res = await apply(me, {
      orderIds: [orderId],
      method: 'pickup',
      pickupDate: today,
      pickupSlot: '10:00-12:00',
    })
    expect(res.statusCode, res.body).toBe(400)
    expect(codeOf(res)).toBe('SLOT_UNAVAILABLE')
  })

  it('refuses an export-banned item to Hong Kong or abroad (EXIT_BANNED), allows the mainland', async () => {
    const me = await buyer()
    const { orderId: lotOrder } = await winLot(t, me, 50_000)
    await t.database.db
      .updateTable('lots')
      .set({ export_banned: 1 })
      .where(
        'id',
        '=',
        (
          await t.database.db
            .selectFrom('orders')
            .select('lot_id')
            .where('id', '=', lotOrder)
            .executeTakeFirstOrThrow()
        ).lot_id!,
      )
      .execute()
    const paid = await doPay(t, me, {
      orderIds: [lotOrder],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    const free = await paidMallOrder(me)
    for (const region of [HONG_KONG, JAPAN]) {
      const addressId = await addressOf(me, region)
      const res = await apply(me, {
        orderIds: [lotOrder, free],
        method: 'express',
        addressId,
        payPassword: PAY_PASSWORD,
      })
      expect(res.statusCode, res.body).toBe(409)
      expect(res.json<{ code: string; orderIds?: number[] }>()).toMatchObject({
        code: 'EXIT_BANNED',
      })
      const check = await get(
        me,
        `/user/3_3/logistic/queryExitBan?orderIds=${lotOrder},${free}&countryId=${region.countryId}${region.provinceId ? `&provinceId=${region.provinceId}` : ''}`,
      )
      expect(check.json<{ data: ExitBan }>().data).toEqual({
        allowed: false,
        bannedOrderIds: [lotOrder],
      })
    }
    const abroadOk = await apply(me, {
      orderIds: [free],
      method: 'express',
      addressId: await addressOf(me, JAPAN),
      payPassword: PAY_PASSWORD,
    })
    expect(abroadOk.statusCode, abroadOk.body).toBe(200)
    const mainland = await apply(me, {
      orderIds: [lotOrder],
      method: 'express',
      addressId: await addressOf(me, BEIJING),
      payPassword: PAY_PASSWORD,
    })
    expect(mainland.statusCode, mainland.body).toBe(200)
    await expectLedgerSound(t.database)
  })

  it("never lets one user touch another's order, address or shipment (404)", async () => {
    const owner = await buyer()
    const other = await buyer()
    const orderId = await paidMallOrder(owner)
    const ownerAddress = await addressOf(owner, BEIJING)
    const otherAddress = await addressOf(other, BEIJING)
    const mine = await paidMallOrder(other)

    const foreignOrder = await apply(other, {
      orderIds: [orderId],
      method: 'pickup',
      ...firstSlot(),
    })
    expect(foreignOrder.statusCode).toBe(404)
    const foreignAddress = await apply(other, {
      orderIds: [mine],
      method: 'express',
      addressId: ownerAddress,
      payPassword: PAY_PASSWORD,
    })
    expect(foreignAddress.statusCode).toBe(404)
    expect(
      (await get(other, `/user/3_3/logistic/queryExitBan?orderIds=${orderId}&countryId=JP`))
        .statusCode,
    ).toBe(404)
    expect(
      (await get(other, `/api/user/logistic/delivery/query?orderIds=${orderId}`)).statusCode,
    ).toBe(404)

    const applied = await apply(owner, {
      orderIds: [orderId],
      method: 'express',
      addressId: ownerAddress,
      payPassword: PAY_PASSWORD,
    })
    const shipmentId = applied.json<{ data: DeliveryApplied }>().data.shipmentId
    expect((await get(other, `/user/${shipmentId}/@logistic`)).statusCode).toBe(404)
    expect((await get(other, `/user/queryAuctionList?shipmentId=${shipmentId}`)).statusCode).toBe(
      404,
    )
    await admin('POST', `/shipments/${shipmentId}/ship`, {
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
    })
    const confirm = await t.call({
      method: 'POST',
      path: '/user/upLogisticStatus',
      as: other,
      body: { shipmentId },
    })
    expect(confirm.statusCode).toBe(404)
    expect(otherAddress).toBeGreaterThan(0)
    expect(await statusOf(orderId)).toBe('shipped')
  })

  it('refuses an order not paid or already applied for (ORDER_NOT_SHIPPABLE)', async () => {
    const me = await buyer()
    const item = await createMallItem(admin, { price: 1_000, stock: 5 })
    const unpaid = (await buy(t, me, { productNo: item.productNo, quantity: 1 })).json<{
      data: { orderId: number }
    }>().data.orderId
    const res = await apply(me, { orderIds: [unpaid], method: 'pickup', ...firstSlot() })
    expect(res.statusCode, res.body).toBe(409)
    expect(codeOf(res)).toBe('ORDER_NOT_SHIPPABLE')

    const paid = await paidMallOrder(me)
    expect(
      (await apply(me, { orderIds: [paid], method: 'pickup', ...firstSlot() })).statusCode,
    ).toBe(200)
    const again = await apply(me, { orderIds: [paid], method: 'pickup', ...firstSlot() })
    expect(codeOf(again)).toBe('ORDER_NOT_SHIPPABLE')
  })

  it('applies 20 concurrent identical requests once: one shipment, one charge', async () => {
    const me = await buyer(100_000)
    const orderId = await paidMallOrder(me)
    const addressId = await addressOf(me, BEIJING)
    const before = await balanceOf(t, me.userId)
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        apply(me, { orderIds: [orderId], method: 'express', addressId, payPassword: PAY_PASSWORD }),
      ),
    )
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(1)
    for (const r of results.filter((r) => r.statusCode !== 200)) {
      expect(codeOf(r), r.body).toBe('ORDER_NOT_SHIPPABLE')
    }
    const shipments = await t.database.db
      .selectFrom('shipments')
      .select('id')
      .where('user_id', '=', Number(me.userId))
      .execute()
    expect(shipments).toHaveLength(1)
    expect(await transfersOf(me.userId)).toHaveLength(1)
    expect(await balanceOf(t, me.userId)).toBe(
      before - ok[0]!.json<{ data: DeliveryApplied }>().data.total,
    )
    await expectLedgerSound(t.database)
  })

  it('replays an Idempotency-Key: the same answer, without the password, nothing charged twice', async () => {
    const me = await buyer(100_000)
    const orderId = await paidMallOrder(me)
    const addressId = await addressOf(me, BEIJING)
    const headers = { 'idempotency-key': `apply-${me.userId}` }
    const body = { orderIds: [orderId], method: 'express', addressId }
    const first = await apply(me, { ...body, payPassword: PAY_PASSWORD }, headers)
    expect(first.statusCode, first.body).toBe(200)
    const replays = await Promise.all(Array.from({ length: 5 }, () => apply(me, body, headers)))
    for (const replay of replays) {
      expect(replay.statusCode, replay.body).toBe(200)
      expect(replay.json()).toEqual(first.json())
    }
    expect(await transfersOf(me.userId)).toHaveLength(1)
  })

  it('takes exactly the capacity of a slot under 30 concurrent pickups', async () => {
    const users = await Promise.all(Array.from({ length: 30 }, () => buyer(20_000)))
    const orders = await Promise.all(users.map((u) => paidMallOrder(u, { price: 1_000 })))
    // A day nobody else booked in this suite: the last bookable one.
    const dates = bookableDates(t.clock.now())
    const slot = { pickupDate: dates[dates.length - 1]!, pickupSlot: '15:30-17:30' }
    const results = await Promise.all(
      users.map((u, i) => apply(u, { orderIds: [orders[i]], method: 'pickup', ...slot })),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10)
    const refused = results.filter((r) => r.statusCode !== 200)
    expect(refused).toHaveLength(20)
    for (const r of refused) expect(codeOf(r), r.body).toBe('SLOT_FULL')
    const booked = await bookedPlaces(t.database.db, [slot.pickupDate])
    expect(booked.get(slotKey(slot.pickupDate, slot.pickupSlot))).toBe(10)
    const applied = await Promise.all(orders.map(statusOf))
    expect(applied.filter((s) => s === 'delivery_applied')).toHaveLength(10)
  })

  it('claims exactly the capacity of a slot under 30 concurrent raw claims', async () => {
    const transact = transactor(t.database)
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        transact((tx) => claimSlotPlace(tx, '2031-01-06', '10:00-12:00', 10)),
      ),
    )
    expect(results.filter(Boolean)).toHaveLength(10)
    const booked = await bookedPlaces(t.database.db, ['2031-01-06'])
    expect(booked.get(slotKey('2031-01-06', '10:00-12:00'))).toBe(10)
  })

  it('runs express to the end: staff ship, the buyer confirms, each step once', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    const addressId = await addressOf(me, BEIJING)
    const applied = (
      await apply(me, {
        orderIds: [orderId],
        method: 'express',
        addressId,
        payPassword: PAY_PASSWORD,
      })
    ).json<{ data: DeliveryApplied }>().data
    const id = applied.shipmentId

    const confirmEarly = await t.call({
      method: 'POST',
      path: '/user/upLogisticStatus',
      as: me,
      body: { shipmentId: id },
    })
    expect(codeOf(confirmEarly)).toBe('ORDER_NOT_RECEIVABLE')
    const handOver = await admin('POST', `/shipments/${id}/complete`)
    expect(handOver.statusCode).toBe(409)
    expect(codeOf(handOver)).toBe('ORDER_NOT_SHIPPABLE')

    const waitingList = (await admin('GET', '/shipments?status=applied&method=express')).json<{
      data: StaffShipment[]
    }>().data
    expect(waitingList.find((s) => s.id === id)).toMatchObject({
      userId: Number(me.userId),
      status: 'applied',
    })

    const ships = await Promise.all(
      Array.from({ length: 5 }, () =>
        admin('POST', `/shipments/${id}/ship`, { carrier: '顺丰速运', trackingNo: 'SF1234567890' }),
      ),
    )
    expect(ships.filter((r) => r.statusCode === 200)).toHaveLength(1)
    for (const r of ships.filter((r) => r.statusCode !== 200))
      expect(codeOf(r)).toBe('ORDER_NOT_SHIPPABLE')
    expect(ships.find((r) => r.statusCode === 200)!.json<{ data: ShipmentChanged }>().data).toEqual(
      {
        shipmentId: id,
        status: 'shipped',
        orderIds: [orderId],
      },
    )
    expect(await statusOf(orderId)).toBe('shipped')

    const waiting = (await get(me, '/api/user/logistic/waiting')).json<ShipmentsPage>()
    expect(waiting.data.map((s) => s.id)).toContain(id)
    const shipped = waiting.data.find((s) => s.id === id)!
    expect(shipped).toMatchObject({ carrier: '顺丰速运', trackingNo: 'SF1234567890' })
    expect(Date.parse(shipped.autoCompleteAt!) - Date.parse(shipped.shippedAt!)).toBe(
      AUTO_COMPLETE_DAYS * DAY,
    )
    const receive = (await get(me, `/user/queryAuctionList?shipmentId=${id}`)).json<{
      data: ReceiveDetail
    }>().data
    expect(receive.shipment.id).toBe(id)
    expect(receive.orders.map((o) => o.id)).toEqual([orderId])

    const counts = (await get(me, '/user/@statistics')).json<{
      data: { counts: Record<string, number> }
    }>().data.counts
    expect(counts.waitingToReceive).toBe(1)
    expect(counts.waitingToShip).toBe(0)

    const confirms = await Promise.all(
      Array.from({ length: 3 }, () =>
        t.call({
          method: 'POST',
          path: '/user/upLogisticStatus',
          as: me,
          body: { shipmentId: id },
        }),
      ),
    )
    expect(confirms.filter((r) => r.statusCode === 200)).toHaveLength(1)
    for (const r of confirms.filter((r) => r.statusCode !== 200))
      expect(codeOf(r)).toBe('ORDER_NOT_RECEIVABLE')
    expect(await statusOf(orderId)).toBe('completed')
    const records = (await get(me, '/api/user/logistic/completed')).json<ShipmentsPage>()
    expect(records.data.find((s) => s.id === id)).toMatchObject({
      status: 'completed',
      autoCompleteAt: null,
    })
    expect(
      (await get(me, '/api/user/logistic/waiting')).json<ShipmentsPage>().data.map((s) => s.id),
    ).not.toContain(id)
  })

  it('runs a pickup to the end: staff hand it over once; it cannot be shipped', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    const counts = async () =>
      (await get(me, '/user/@statistics')).json<{ data: { counts: Record<string, number> } }>().data
        .counts
    expect((await counts()).waitingToShip).toBe(1)
    const id = (await apply(me, { orderIds: [orderId], method: 'pickup', ...firstSlot() })).json<{
      data: DeliveryApplied
    }>().data.shipmentId
    expect((await counts()).waitingToShip).toBe(1)
    const ship = await admin('POST', `/shipments/${id}/ship`, {
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
    })
    expect(codeOf(ship)).toBe('ORDER_NOT_SHIPPABLE')
    const first = await admin('POST', `/shipments/${id}/complete`)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json<{ data: ShipmentChanged }>().data).toEqual({
      shipmentId: id,
      status: 'completed',
      orderIds: [orderId],
    })
    const second = await admin('POST', `/shipments/${id}/complete`)
    expect(codeOf(second)).toBe('ORDER_NOT_SHIPPABLE')
    expect(await statusOf(orderId)).toBe('completed')
    expect((await counts()).waitingToShip).toBe(0)
    const confirm = await t.call({
      method: 'POST',
      path: '/user/upLogisticStatus',
      as: me,
      body: { shipmentId: id },
    })
    expect(codeOf(confirm)).toBe('ORDER_NOT_RECEIVABLE')
    expect((await admin('POST', '/shipments/999999/complete')).statusCode).toBe(404)
  })

  it('completes a shipped shipment 15 days after shipping, once, with two jobs racing', async () => {
    const me = await buyer()
    const orderId = await paidMallOrder(me)
    const addressId = await addressOf(me, BEIJING)
    const id = (
      await apply(me, {
        orderIds: [orderId],
        method: 'express',
        addressId,
        payPassword: PAY_PASSWORD,
      })
    ).json<{ data: DeliveryApplied }>().data.shipmentId
    expect(
      (
        await admin('POST', `/shipments/${id}/ship`, {
          carrier: '中国邮政',
          trackingNo: 'EMS-0001',
        })
      ).statusCode,
    ).toBe(200)
    const jobs = [
      CompletionJob.forDatabase(t.database, t.clock),
      CompletionJob.forDatabase(t.database, t.clock),
    ]

    t.clock.advance(AUTO_COMPLETE_DAYS * DAY - 60_000)
    expect((await Promise.all(jobs.map((j) => j.sweep()))).flat()).not.toContain(id)
    expect(await statusOf(orderId)).toBe('shipped')

    t.clock.advance(60_000)
    const runs = await Promise.all([...jobs, ...jobs].map((j) => j.sweep()))
    expect(runs.flat().filter((s) => s === id)).toHaveLength(1)
    expect(await statusOf(orderId)).toBe('completed')
    const shipment = (await get(me, `/user/${id}/@logistic`)).json<{ data: Shipment }>().data
    expect(shipment.status).toBe('completed')
    const late = await t.call({
      method: 'POST',
      path: '/user/upLogisticStatus',
      as: me,
      body: { shipmentId: id },
    })
    expect(codeOf(late)).toBe('ORDER_NOT_RECEIVABLE')
  })

  it('answers the insurance fee and the apply-to-ship screen', async () => {
    const me = await buyer()
    const fee = (await get(me, '/user/3_3/logistic/queryKeepFee?value=1000000')).json<{
      data: KeepFee
    }>().data
    expect(fee).toEqual({
      value: 1_000_000,
      fee: insuranceFee(1_000_000),
      rateBps: 50,
      minimum: 500,
    })
    expect((await get(me, '/user/3_3/logistic/queryKeepFee?value=-1')).statusCode).toBe(400)

    const orderId = await paidMallOrder(me, { price: 30_000 })
    const addressId = await addressOf(me, HONG_KONG)
    const info = (
      await get(
        me,
        `/api/user/logistic/delivery/query?orderIds=${orderId}&addressId=${addressId}&insured=1`,
      )
    ).json<{ data: DeliveryInfo }>().data
    expect(info.orders.map((o) => o.order.id)).toEqual([orderId])
    expect(info.orders[0]).toMatchObject({ storageFee: 0, exportBanned: false })
    expect(info.quote).toMatchObject({
      orderIds: [orderId],
      declaredValue: 30_000,
      shippingFee: DEFAULT_SHIPPING_RATES.hmt.first,
      insuranceFee: insuranceFee(30_000),
      exitBanned: false,
    })
    expect(info.pickupDays.length).toBeGreaterThan(0)
    expect(info.pickupDays[0]!.slots).toHaveLength(3)
    expect(info.counterAddress).not.toBe('')
  })
})
