import { describe, expect, it } from 'vitest'
import { CARRIERS, maskMobile, PickListQuerySchema, trackingNoRefusal } from './staff-fulfilment'

describe('tracking numbers', () => {
  it("accepts each carrier's own example and refuses a number of another shape", () => {
    for (const carrier of CARRIERS) {
      expect(trackingNoRefusal(carrier.name, carrier.example)).toBeNull()
      expect(trackingNoRefusal(carrier.name, 'ZZ')).toBe(carrier.example)
    }
    expect(trackingNoRefusal('顺丰速运', 'sf1234567890')).toBeNull()
    expect(trackingNoRefusal('顺丰速运', '1234567890123')).toBe('SF1234567890123')
  })

  it('leaves a carrier outside the list to the contract’s general shape', () => {
    expect(trackingNoRefusal('跨越速运', 'KY-0001')).toBeNull()
  })
})

describe('maskMobile', () => {
  it('keeps the first three and last four digits', () => {
    expect(maskMobile('13812345678')).toBe('138****5678')
    expect(maskMobile('+12025550123')).toBe('+12****0123')
    expect(maskMobile('12345')).toBe('****45')
  })
})

describe('PickListQuerySchema', () => {
  it('takes a day (and slot) or shipments, never both or neither', () => {
    expect(PickListQuerySchema.parse({ date: '2026-11-27', slot: '10:00-12:00' })).toEqual({
      date: '2026-11-27',
      slot: '10:00-12:00',
    })
    expect(PickListQuerySchema.parse({ shipmentIds: '3,1,3' })).toEqual({ shipmentIds: [3, 1] })
    expect(PickListQuerySchema.safeParse({}).success).toBe(false)
    expect(PickListQuerySchema.safeParse({ date: '2026-11-27', shipmentIds: '1' }).success).toBe(
      false,
    )
    expect(PickListQuerySchema.safeParse({ slot: '10:00-12:00', shipmentIds: '1' }).success).toBe(
      false,
    )
  })
})
