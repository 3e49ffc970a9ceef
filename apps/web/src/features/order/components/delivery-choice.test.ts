import type { PickupDay } from '@numisma/contracts/delivery'
import type { Order } from '@numisma/contracts/orders'
import { describe, expect, it } from 'vitest'
import {
  bookableOrders,
  bookingCancellable,
  daysWithPlaces,
  declaredValue,
  parseDeliveryChoice,
  selectedOrders,
  slotChoice,
  storageNote,
  toggled,
} from './delivery-choice'

const buildOrder = (overrides: Partial<Order> = {}): Order => ({
  id: 1,
  kind: 'auction',
  status: 'paid',
  items: [{ title: '1980 长城币', lotId: 7, quantity: 1, price: 50_000, image: '' }],
  goods: 50_000,
  fee: 2_500,
  discount: 0,
  total: 52_500,
  userCouponId: null,
  payMethod: 'balance',
  createdAt: '2030-01-01T00:00:00.000Z',
  dueAt: null,
  paidAt: '2030-01-01T01:00:00.000Z',
  cancelledAt: null,
  ...overrides,
})

const day = (date: string, remaining: number[]): PickupDay => ({
  date,
  slots: (['10:00-12:00', '13:30-15:30', '15:30-17:30'] as const).map((slot, i) => ({
    slot,
    remaining: remaining[i] ?? 0,
  })),
})

describe('delivery choices', () => {
  it('reads the method from the URL, express for anything unknown', () => {
    expect(parseDeliveryChoice('pickup')).toBe('pickup')
    expect(parseDeliveryChoice('cash')).toBe('cash')
    expect(parseDeliveryChoice('drone')).toBe('express')
    expect(parseDeliveryChoice(null)).toBe('express')
  })

  it('ticks every order offered until the URL names some, and drops those gone', () => {
    const offered = [{ id: 3 }, { id: 5 }, { id: 8 }]
    expect(selectedOrders(null, offered)).toEqual(offered)
    expect(selectedOrders([8, 4], offered)).toEqual([{ id: 8 }])
    expect(selectedOrders([], offered)).toEqual([])
  })

  it('toggles one order, keeping the offered order', () => {
    const offered = [{ id: 3 }, { id: 5 }, { id: 8 }]
    expect(toggled([8], offered, 3, true)).toEqual([3, 8])
    expect(toggled([3, 8], offered, 3, false)).toEqual([8])
    expect(toggled([3], offered, 3, true)).toEqual([3])
  })

  it('declares the chosen orders at their totals', () => {
    expect(declaredValue([buildOrder(), buildOrder({ total: 1_000 })])).toBe(53_500)
    expect(declaredValue([])).toBe(0)
  })

  it('says free until a day, or the storage fee run up', () => {
    expect(storageNote({ storageFee: 0, storageFreeUntil: '2030-02-01T16:00:00.000Z' })).toEqual({
      kind: 'free',
      until: '2030-02-01T16:00:00.000Z',
    })
    expect(storageNote({ storageFee: 300, storageFreeUntil: '2030-01-01T16:00:00.000Z' })).toEqual({
      kind: 'fee',
      fee: 300,
    })
  })

  it('offers only days with a place left and keeps a pick while it has places', () => {
    const days = [
      day('2030-01-03', [0, 0, 0]),
      day('2030-01-04', [0, 2, 1]),
      day('2030-01-05', [5]),
    ]
    expect(daysWithPlaces(days).map((d) => d.date)).toEqual(['2030-01-04', '2030-01-05'])
    expect(slotChoice(days, undefined, undefined)).toEqual({
      date: '2030-01-04',
      slot: '13:30-15:30',
    })
    expect(slotChoice(days, '2030-01-04', '15:30-17:30')).toEqual({
      date: '2030-01-04',
      slot: '15:30-17:30',
    })
    // A full day or slot is never kept as the choice.
    expect(slotChoice(days, '2030-01-03', '10:00-12:00')).toEqual({
      date: '2030-01-04',
      slot: '13:30-15:30',
    })
    expect(slotChoice(days, '2030-01-05', '13:30-15:30')).toEqual({
      date: '2030-01-05',
      slot: '10:00-12:00',
    })
    expect(slotChoice([day('2030-01-03', [0, 0, 0])], undefined, undefined)).toBeNull()
  })

  it('books counter cash for unpaid orders only, an overdue won lot included', () => {
    const orders = [
      buildOrder({ id: 1, status: 'pending_payment' }),
      buildOrder({ id: 2, status: 'overdue' }),
      buildOrder({ id: 3, status: 'paid' }),
      buildOrder({ id: 4, status: 'cancelled' }),
    ]
    expect(bookableOrders(orders).map((o) => o.id)).toEqual([1, 2])
  })

  it('lets a booking be cancelled only before its China day', () => {
    // 2030-01-02 23:30 in China.
    const now = Date.parse('2030-01-02T15:30:00.000Z')
    expect(bookingCancellable({ status: 'booked', date: '2030-01-03' }, now)).toBe(true)
    expect(bookingCancellable({ status: 'booked', date: '2030-01-02' }, now)).toBe(false)
    expect(bookingCancellable({ status: 'cancelled', date: '2030-01-05' }, now)).toBe(false)
    // Past China midnight it is already the day.
    const after = Date.parse('2030-01-02T16:00:00.000Z')
    expect(bookingCancellable({ status: 'booked', date: '2030-01-03' }, after)).toBe(false)
  })
})
