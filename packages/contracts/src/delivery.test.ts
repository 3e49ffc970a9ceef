import { describe, expect, it } from 'vitest'
import {
  BookingApplySchema,
  DeliveryApplySchema,
  DeliveryQueryQuerySchema,
  ExitBanQuerySchema,
  KeepFeeQuerySchema,
  ShipmentShipSchema,
} from './delivery'

const issuePaths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.path.join('.')) ?? []

describe('delivery contracts (DESIGN §9 "Delivery")', () => {
  it('takes an express application with an address, insurance off by default', () => {
    const body = DeliveryApplySchema.parse({ orderIds: [1, 2], method: 'express', addressId: 7 })
    expect(body).toEqual({ orderIds: [1, 2], method: 'express', addressId: 7, insured: false })
  })

  it('names the field an application lacks', () => {
    expect(issuePaths(DeliveryApplySchema.safeParse({ orderIds: [1], method: 'express' }))).toEqual(
      ['addressId'],
    )
    expect(issuePaths(DeliveryApplySchema.safeParse({ orderIds: [1], method: 'pickup' }))).toEqual([
      'pickupDate',
      'pickupSlot',
    ])
    const pickup = {
      orderIds: [1],
      method: 'pickup',
      pickupDate: '2026-11-27',
      pickupSlot: '10:00-12:00',
    }
    expect(DeliveryApplySchema.safeParse(pickup).success).toBe(true)
    expect(DeliveryApplySchema.safeParse({ ...pickup, pickupSlot: '09:00' }).success).toBe(false)
    expect(DeliveryApplySchema.safeParse({ ...pickup, pickupDate: '2026-02-30' }).success).toBe(
      false,
    )
  })

  it('refuses empty, repeated, oversized and out-of-range order ids', () => {
    for (const orderIds of [[], [1, 1], Array.from({ length: 51 }, (_, i) => i + 1), [2 ** 31]]) {
      expect(
        BookingApplySchema.safeParse({ orderIds, date: '2026-11-27', slot: '10:00-12:00' }),
      ).toMatchObject({ success: false })
    }
  })

  it('reads order ids from a query string', () => {
    expect(ExitBanQuerySchema.parse({ orderIds: '3,4', countryId: 'US' })).toEqual({
      orderIds: [3, 4],
      countryId: 'US',
    })
    expect(ExitBanQuerySchema.safeParse({ orderIds: '3,3', countryId: 'CN' }).success).toBe(false)
    expect(ExitBanQuerySchema.safeParse({ orderIds: '0', countryId: 'CN' }).success).toBe(false)
    expect(ExitBanQuerySchema.safeParse({ orderIds: '1', countryId: 'cn' }).success).toBe(false)
    expect(
      ExitBanQuerySchema.parse({ orderIds: '1', countryId: 'CN', provinceId: '810000' }).provinceId,
    ).toBe('810000')
    expect(DeliveryQueryQuerySchema.parse({})).toEqual({})
  })

  it('bounds the declared value and the tracking number', () => {
    expect(KeepFeeQuerySchema.parse({ value: '150000' })).toEqual({ value: 150_000 })
    expect(KeepFeeQuerySchema.safeParse({ value: '-1' }).success).toBe(false)
    expect(KeepFeeQuerySchema.safeParse({ value: '1.5' }).success).toBe(false)
    expect(ShipmentShipSchema.parse({ carrier: ' 顺丰速运 ', trackingNo: 'SF1234567890' })).toEqual(
      {
        carrier: '顺丰速运',
        trackingNo: 'SF1234567890',
      },
    )
    expect(ShipmentShipSchema.safeParse({ carrier: 'SF', trackingNo: 'SF 12' }).success).toBe(false)
    expect(ShipmentShipSchema.safeParse({ carrier: '', trackingNo: 'SF1234' }).success).toBe(false)
  })
})
