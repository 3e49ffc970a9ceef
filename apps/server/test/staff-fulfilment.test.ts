import type { ShipmentsPage } from '@numisma/contracts/delivery'
import type { AuditEntry } from '@numisma/contracts/staff'
import type { CounterDay, FulfilmentShipment, PickList } from '@numisma/contracts/staff-fulfilment'
import { bookableDates } from '@numisma/domain/delivery'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type Session, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'
import { buy, createMallItem, type StaffCall, staffCaller } from './helpers/mall-orders'
import { doPay, fundBalance, PAY_PASSWORD, payer, winLot } from './helpers/payments'

const databases = await testDatabases()

const codeOf = (res: LightMyRequestResponse) => res.json<{ code?: string }>().code
/** An audit line's before/after: stored as JSON text, answered parsed (either is read here). */
const parsed = (value: unknown): unknown =>
  typeof value === 'string' ? (JSON.parse(value) as unknown) : value
const dataOf = (res: LightMyRequestResponse): unknown => {
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ data: unknown }>().data
}

describe.each(databases)('staff fulfilment on $name', (target) => {
  let t: TestApp
  let admin: StaffCall
  let shipping: StaffCall

  beforeAll(async () => {
    t = await createTestApp(target)
  })
  afterAll(() => t.close())
  beforeEach(async () => {
    admin = await staffCaller(t)
    shipping = await staffCaller(t, ['shipping'])
  })

  async function buyer(): Promise<Session> {
    const session = await payer(t)
    await fundBalance(t, session.userId, 1_000_000)
    return session
  }

  /** A mall order bought by `as`, paid from the balance unless `paid` is false. */
  async function mallOrder(as: Session, title: string, paid = true) {
    const item = await createMallItem(admin, { title, price: 10_000, stock: 100 })
    const placed = await buy(t, as, { productNo: item.productNo, quantity: 1 })
    const orderId = placed.json<{ data: { orderId: number } }>().data.orderId
    if (paid) {
      const res = await doPay(t, as, {
        orderIds: [orderId],
        method: 'balance',
        payPassword: PAY_PASSWORD,
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    return { orderId, productNo: item.productNo }
  }

  const pickup = async (as: Session, orderId: number, date: string, slot: string) =>
    (
      dataOf(
        await t.call({
          method: 'POST',
          path: '/api/user/logistic/delivery/apply',
          as,
          body: { orderIds: [orderId], method: 'pickup', pickupDate: date, pickupSlot: slot },
        }),
      ) as { shipmentId: number }
    ).shipmentId

  const book = async (as: Session, orderId: number, date: string, slot: string) =>
    (
      dataOf(
        await t.call({
          method: 'POST',
          path: '/user/booking/bookingApply',
          as,
          body: { orderIds: [orderId], date, slot },
        }),
      ) as { bookingId: number }
    ).bookingId

  const auditOf = async (target: string) =>
    dataOf(await admin('GET', `/audit?target=${encodeURIComponent(target)}`)) as AuditEntry[]

  /** A won lot (graded, with a certificate), paid, applied for express to Beijing. */
  async function expressShipment(as: Session) {
    const orderId = await winLot(t, as, 50_000)
    const { lot_id: lotId } = await t.database.db
      .selectFrom('orders')
      .select('lot_id')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    await t.database.db
      .updateTable('lots')
      .set({ grading_service: 'PCGS', cert_no: '40123456' })
      .where('id', '=', lotId!)
      .execute()
    const paid = await doPay(t, as, {
      orderIds: [orderId],
      method: 'balance',
      payPassword: PAY_PASSWORD,
    })
    expect(paid.statusCode, paid.body).toBe(200)
    const address = dataOf(
      await t.call({
        method: 'POST',
        path: '/user/address',
        as,
        body: {
          name: '张三',
          mobile: '13800138000',
          countryId: 'CN',
          provinceId: '110000',
          cityId: '110105',
          detail: '建国路88号',
        },
      }),
    ) as { id: number }
    const shipmentId = (
      dataOf(
        await t.call({
          method: 'POST',
          path: '/api/user/logistic/delivery/apply',
          as,
          body: {
            orderIds: [orderId],
            method: 'express',
            addressId: address.id,
            insured: true,
            payPassword: PAY_PASSWORD,
          },
        }),
      ) as { shipmentId: number }
    ).shipmentId
    return { orderId, lotId: lotId!, shipmentId }
  }

  it('lists an express shipment to ship with what to pack; refuses a tracking number that does not fit the carrier; ships it once; the buyer waits to receive it', async () => {
    const me = await buyer()
    const { orderId, lotId, shipmentId } = await expressShipment(me)

    const waiting = dataOf(
      await shipping('GET', '/fulfilment/shipments?status=applied'),
    ) as FulfilmentShipment[]
    const mine = waiting.find((s) => s.id === shipmentId)!
    expect(mine).toMatchObject({
      status: 'applied',
      insured: true,
      buyer: { userId: Number(me.userId), mobile: me.mobile },
      address: { name: '张三', mobile: '13800138000', detail: '建国路88号' },
      carrier: null,
    })
    expect(mine.items).toEqual([
      expect.objectContaining({
        orderId,
        lotId,
        lotNo: 1,
        specialTitle: '测试专场',
        productNo: null,
        grade: '九品',
        gradingService: 'PCGS',
        certNo: '40123456',
      }),
    ])

    // SF numbers are SF and digits: a coded refusal, nothing moves.
    const wrong = await shipping('POST', `/shipments/${shipmentId}/ship`, {
      carrier: '顺丰速运',
      trackingNo: '12345',
    })
    expect(wrong.statusCode).toBe(400)
    expect(codeOf(wrong)).toBe('TRACKING_NO_INVALID')
    // The contract's own shape: a tracking number with spaces is not one.
    const malformed = await shipping('POST', `/shipments/${shipmentId}/ship`, {
      carrier: '其他',
      trackingNo: 'AB 12',
    })
    expect(codeOf(malformed)).toBe('VALIDATION_FAILED')

    const shipped = await shipping('POST', `/shipments/${shipmentId}/ship`, {
      carrier: '顺丰速运',
      trackingNo: 'sf1234567890123',
    })
    expect(dataOf(shipped)).toEqual({ shipmentId, status: 'shipped', orderIds: [orderId] })
    const again = await shipping('POST', `/shipments/${shipmentId}/ship`, {
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890999',
    })
    expect(codeOf(again)).toBe('ORDER_NOT_SHIPPABLE')

    const applied = dataOf(await shipping('GET', '/fulfilment/shipments')) as FulfilmentShipment[]
    expect(applied.some((s) => s.id === shipmentId)).toBe(false)
    const done = dataOf(
      await shipping('GET', '/fulfilment/shipments?status=shipped'),
    ) as FulfilmentShipment[]
    expect(done.find((s) => s.id === shipmentId)).toMatchObject({
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890123',
    })
    const receive = await t.call({ method: 'GET', path: '/api/user/logistic/waiting', as: me })
    expect(receive.json<ShipmentsPage>().data.map((s) => [s.id, s.status, s.trackingNo])).toEqual([
      [shipmentId, 'shipped', 'SF1234567890123'],
    ])

    // The audit log: the refusal, the shipping with before and after, the second refusal.
    const lines = await auditOf(`shipment:${shipmentId}`)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ statusCode: 200 })
    expect(parsed(lines[0]!.before)).toEqual({
      status: 'applied',
      carrier: null,
      trackingNo: null,
    })
    expect(parsed(lines[0]!.after)).toMatchObject({
      status: 'shipped',
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890123',
    })
    const refused = (
      dataOf(await admin('GET', '/audit?route=/ship&limit=50')) as AuditEntry[]
    ).filter((e) => e.route === '/svc/main/admin/shipments/:id/ship' && e.errorCode !== null)
    expect(refused.map((e) => e.errorCode)).toEqual(
      expect.arrayContaining(['TRACKING_NO_INVALID', 'ORDER_NOT_SHIPPABLE']),
    )
  })

  it("counts a day's slots as the slot counts keep them, with each pickup's and booking's buyer and items; hands over, cancels, and prints the pick list", async () => {
    const [date, otherDate] = bookableDates(t.clock.now())
    const [a, b, c, d] = await Promise.all([buyer(), buyer(), buyer(), buyer()])
    const first = await mallOrder(a, '熊猫金币 2024 30克')
    const second = await mallOrder(b, '长城币 1980 壹圆')
    const unpaid = await mallOrder(c, '纪念钞 2015 航天', false)
    const later = await mallOrder(d, '生肖银币 龙年', false)
    const p1 = await pickup(a, first.orderId, date!, '10:00-12:00')
    const p2 = await pickup(b, second.orderId, date!, '10:00-12:00')
    const b1 = await book(c, unpaid.orderId, date!, '10:00-12:00')
    const b2 = await book(d, later.orderId, date!, '13:30-15:30')
    // Another day's pickup stays off this day's list.
    const elsewhere = await mallOrder(a, '另一天的拍品')
    await pickup(a, elsewhere.orderId, otherDate!, '10:00-12:00')

    const day = dataOf(await shipping('GET', `/fulfilment/pickups?date=${date}`)) as CounterDay
    expect(day.slots.map((s) => [s.slot, s.capacity, s.booked])).toEqual([
      ['10:00-12:00', 10, 3],
      ['13:30-15:30', 10, 1],
      ['15:30-17:30', 10, 0],
    ])
    const morning = day.slots[0]!
    expect(morning.pickups.map((p) => [p.shipmentId, p.status, p.buyer.mobile])).toEqual([
      [p1, 'applied', a.mobile],
      [p2, 'applied', b.mobile],
    ])
    expect(morning.pickups[0]!.items).toEqual([
      expect.objectContaining({
        orderId: first.orderId,
        title: '熊猫金币 2024 30克',
        productNo: first.productNo,
        lotId: null,
      }),
    ])
    expect(morning.bookings.map((x) => [x.bookingId, x.status, x.buyer.mobile])).toEqual([
      [b1, 'booked', c.mobile],
    ])
    expect(morning.bookings[0]!.items[0]).toMatchObject({ productNo: unpaid.productNo })
    expect(day.slots[1]!.bookings.map((x) => x.bookingId)).toEqual([b2])

    // The morning's pick list: two pickups and the booking, one sheet each, mobiles masked.
    const list = dataOf(
      await shipping('GET', `/fulfilment/pick-lists?date=${date}&slot=10:00-12:00`),
    ) as PickList
    expect(list).toMatchObject({ house: '泉藏拍卖', date, slot: '10:00-12:00' })
    expect(list.sheets.map((s) => [s.kind, s.id])).toEqual([
      ['pickup', p1],
      ['pickup', p2],
      ['booking', b1],
    ])
    expect(list.sheets[0]).toMatchObject({
      buyerMobile: `${a.mobile.slice(0, 3)}****${a.mobile.slice(-4)}`,
      date,
      slot: '10:00-12:00',
      cash: null,
      items: [expect.objectContaining({ title: '熊猫金币 2024 30克', productNo: first.productNo })],
    })
    expect(list.sheets[2]).toMatchObject({ kind: 'booking', cash: 10_000 })
    expect(JSON.stringify(list)).not.toContain(a.mobile)
    // The whole day: the afternoon booking too.
    const whole = dataOf(await shipping('GET', `/fulfilment/pick-lists?date=${date}`)) as PickList
    expect(whole.sheets.map((s) => s.id)).toEqual([p1, p2, b1, b2])

    // Handed over and cancelled: the counts follow the slot counts (a cancel gives its place back).
    expect(dataOf(await shipping('POST', `/shipments/${p1}/complete`))).toMatchObject({
      status: 'completed',
    })
    expect(codeOf(await shipping('POST', `/shipments/${p1}/complete`))).toBe('ORDER_NOT_SHIPPABLE')
    expect(dataOf(await shipping('POST', `/bookings/${b2}/cancel`))).toMatchObject({
      status: 'cancelled',
    })
    const after = dataOf(await shipping('GET', `/fulfilment/pickups?date=${date}`)) as CounterDay
    expect(after.slots.map((s) => s.booked)).toEqual([3, 0, 0])
    expect(after.slots[0]!.pickups.map((p) => p.status)).toEqual(['completed', 'applied'])
    expect(after.slots[1]!.bookings.map((x) => x.status)).toEqual(['cancelled'])
    const rest = dataOf(await shipping('GET', `/fulfilment/pick-lists?date=${date}`)) as PickList
    expect(rest.sheets.map((s) => s.id)).toEqual([p2, b1])

    const handOver = await auditOf(`shipment:${p1}`)
    expect(handOver.map((e) => [e.statusCode, parsed(e.before), parsed(e.after)])).toEqual([
      [
        200,
        { status: 'applied' },
        { shipmentId: p1, status: 'completed', orderIds: [first.orderId] },
      ],
    ])
    const cancel = await auditOf(`booking:${b2}`)
    expect(cancel).toHaveLength(1)
    expect(parsed(cancel[0]!.before)).toMatchObject({ id: b2, status: 'booked' })
    expect(parsed(cancel[0]!.after)).toMatchObject({ id: b2, status: 'cancelled' })
  })

  it('prints the chosen express shipments, with the address and its mobile masked; refuses unknown ids and a query without a day or shipments', async () => {
    const me = await buyer()
    const { shipmentId } = await expressShipment(me)
    const shipment = (
      dataOf(await shipping('GET', '/fulfilment/shipments')) as FulfilmentShipment[]
    ).find((s) => s.id === shipmentId)!
    expect(shipment.declaredValue).toBeGreaterThan(50_000)
    const list = dataOf(
      await shipping('GET', `/fulfilment/pick-lists?shipmentIds=${shipmentId}`),
    ) as PickList
    expect(list.slot).toBeNull()
    expect(list.sheets).toEqual([
      expect.objectContaining({
        kind: 'express',
        id: shipmentId,
        insured: true,
        declaredValue: shipment.declaredValue,
        address: expect.objectContaining({ name: '张三', mobile: '138****8000' }),
        items: [expect.objectContaining({ lotNo: 1, certNo: '40123456' })],
      }),
    ])
    const unknown = await shipping('GET', `/fulfilment/pick-lists?shipmentIds=${shipmentId},999999`)
    expect(unknown.statusCode).toBe(404)
    expect(codeOf(await shipping('GET', '/fulfilment/pick-lists'))).toBe('VALIDATION_FAILED')
    expect(codeOf(await shipping('GET', '/fulfilment/pick-lists?slot=10:00-12:00'))).toBe(
      'VALIDATION_FAILED',
    )
    expect(codeOf(await shipping('GET', '/fulfilment/pickups?date=2026-02-30'))).toBe(
      'VALIDATION_FAILED',
    )
  })

  it('ships a shipment once and hands a pickup over once when staff click at the same time', async () => {
    const me = await buyer()
    const { shipmentId } = await expressShipment(me)
    const shipped = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        shipping('POST', `/shipments/${shipmentId}/ship`, {
          carrier: '中通快递',
          trackingNo: `7812345678901${i}`,
        }),
      ),
    )
    expect(shipped.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(new Set(shipped.filter((r) => r.statusCode !== 200).map(codeOf))).toEqual(
      new Set(['ORDER_NOT_SHIPPABLE']),
    )
    // The one that won is the one recorded, on the shipment and in the audit log.
    const listed = (
      dataOf(await shipping('GET', '/fulfilment/shipments?status=shipped')) as FulfilmentShipment[]
    ).find((s) => s.id === shipmentId)!
    expect(listed.trackingNo).toMatch(/^7812345678901\d$/)
    const lines = await auditOf(`shipment:${shipmentId}`)
    expect(lines).toHaveLength(1)
    expect(parsed(lines[0]!.after)).toMatchObject({ trackingNo: listed.trackingNo })

    const date = bookableDates(t.clock.now())[1]!
    const other = await buyer()
    const { orderId } = await mallOrder(other, '同时交付的藏品')
    const pickupId = await pickup(other, orderId, date, '15:30-17:30')
    const handed = await Promise.all(
      Array.from({ length: 8 }, () => shipping('POST', `/shipments/${pickupId}/complete`)),
    )
    expect(handed.filter((r) => r.statusCode === 200)).toHaveLength(1)
    expect(handed.filter((r) => codeOf(r) === 'ORDER_NOT_SHIPPABLE')).toHaveLength(7)
  })

  it('admits shipping (and cashiers to the counter day), refuses support, and keeps closing a cash booking to cashiers', async () => {
    const support = await staffCaller(t, ['support'])
    const cashier = await staffCaller(t, ['cashier'])
    const date = bookableDates(t.clock.now())[0]!
    for (const path of [
      '/fulfilment/shipments',
      `/fulfilment/pickups?date=${date}`,
      `/fulfilment/pick-lists?date=${date}`,
    ]) {
      const res = await support('GET', path)
      expect([path, res.statusCode, codeOf(res)]).toEqual([path, 403, 'FORBIDDEN'])
    }
    expect(
      codeOf(await support('POST', '/shipments/1/ship', { carrier: '其他', trackingNo: 'X1234' })),
    ).toBe('FORBIDDEN')
    expect((await cashier('GET', `/fulfilment/pickups?date=${date}`)).statusCode).toBe(200)
    expect(codeOf(await cashier('GET', '/fulfilment/shipments'))).toBe('FORBIDDEN')

    const c = await buyer()
    const unpaid = await mallOrder(c, '待柜台付款的藏品', false)
    const bookingId = await book(c, unpaid.orderId, date, '15:30-17:30')
    expect(codeOf(await shipping('POST', `/bookings/${bookingId}/complete`))).toBe('FORBIDDEN')
    expect(dataOf(await cashier('POST', `/bookings/${bookingId}/complete`))).toMatchObject({
      bookingId,
      status: 'completed',
    })
    const lines = await auditOf(`booking:${bookingId}`)
    expect(lines.map((e) => [e.statusCode, parsed(e.before), parsed(e.after)])).toEqual([
      [
        200,
        { status: 'booked', orderIds: [unpaid.orderId] },
        { bookingId, status: 'completed', orderIds: [unpaid.orderId] },
      ],
    ])
  })
})
