import { z } from 'zod'
import { idListSchema } from './api'
import {
  BookingStatusSchema,
  PICKUP_SLOTS,
  PickupSlotSchema,
  ShipmentAddressSchema,
  ShipmentStatusSchema,
} from './delivery'

/**
 * The console's fulfilment area (issue 12, role `shipping`; closing a counter cash booking is
 * `cashier`): express shipments to ship, the counter's pickups and cash bookings by slot, and
 * printable pick lists. Amounts in fen, instants ISO-8601 UTC, dates China calendar days.
 */
const Fen = z.number().int()

/**
 * The carriers the ship form offers, with the shape of their tracking numbers. `其他` takes any
 * number the contract's ShipmentShipSchema allows (4–40 letters, digits or dashes).
 */
export const CARRIERS = [
  { name: '顺丰速运', pattern: /^SF\d{10,15}$/, example: 'SF1234567890123' },
  { name: '中国邮政EMS', pattern: /^[A-Z]{2}\d{9}[A-Z]{2}$|^\d{13}$/, example: 'EA123456789CN' },
  { name: '京东物流', pattern: /^JD[A-Z0-9]{11,18}$/, example: 'JDVA12345678901' },
  { name: '中通快递', pattern: /^\d{12,15}$/, example: '781234567890123' },
  { name: '圆通速递', pattern: /^YT\d{13,16}$/, example: 'YT1234567890123' },
  { name: '韵达快递', pattern: /^\d{13,15}$/, example: '4312345678901' },
  { name: '申通快递', pattern: /^\d{12,15}$/, example: '773123456789012' },
  { name: '德邦快递', pattern: /^DPK\d{12}$|^\d{10}$/, example: 'DPK123456789012' },
] as const

export const OTHER_CARRIER = '其他'

/**
 * Why a tracking number does not fit its carrier (null when it does, or for a carrier not in the
 * list, whose numbers we cannot know). Both the ship form and the server judge with this.
 */
export function trackingNoRefusal(carrier: string, trackingNo: string): string | null {
  const known = CARRIERS.find((c) => c.name === carrier)
  if (!known) return null
  return known.pattern.test(trackingNo.trim().toUpperCase()) ? null : known.example
}

/** 13812345678 → 138****5678; anything shorter than 7 characters keeps only its last two. */
export function maskMobile(mobile: string): string {
  const chars = Array.from(mobile)
  if (chars.length < 7) return `****${chars.slice(-2).join('')}`
  return `${chars.slice(0, 3).join('')}****${chars.slice(-4).join('')}`
}

/** What the counter hands over or packs: one order's item, with what tells it apart. */
export const PickItemSchema = z.object({
  orderId: z.number().int(),
  title: z.string(),
  /** A lot: its id, its number in its special and the special's title. */
  lotId: z.number().int().nullable(),
  lotNo: z.number().int().nullable(),
  specialTitle: z.string().nullable(),
  /** A mall item: its product number. */
  productNo: z.string().nullable(),
  quantity: z.number().int(),
  /** The grade's name ('' when none), the grading service and certificate number, if graded. */
  grade: z.string(),
  gradingService: z.string().nullable(),
  certNo: z.string().nullable(),
  image: z.string(),
})
export type PickItem = z.infer<typeof PickItemSchema>

export const BuyerSchema = z.object({
  userId: z.number().int(),
  display: z.string(),
  mobile: z.string(),
})
export type Buyer = z.infer<typeof BuyerSchema>

/** Staff `GET /admin/fulfilment/shipments?status=`: express shipments to ship, or shipped. */
export const FulfilmentShipmentsQuerySchema = z.object({
  status: z.enum(['applied', 'shipped']).default('applied'),
})
export type FulfilmentShipmentsQuery = z.infer<typeof FulfilmentShipmentsQuerySchema>

export const FulfilmentShipmentSchema = z.object({
  id: z.number().int(),
  status: ShipmentStatusSchema,
  buyer: BuyerSchema,
  address: ShipmentAddressSchema.nullable(),
  items: z.array(PickItemSchema),
  insured: z.boolean(),
  declaredValue: Fen,
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  appliedAt: z.string(),
  shippedAt: z.string().nullable(),
})
export type FulfilmentShipment = z.infer<typeof FulfilmentShipmentSchema>

/** Staff `GET /admin/fulfilment/pickups?date=`: the counter's day, slot by slot. */
export const PickupsQuerySchema = z.object({ date: z.iso.date() })

export const SlotPickupSchema = z.object({
  shipmentId: z.number().int(),
  status: ShipmentStatusSchema,
  buyer: BuyerSchema,
  items: z.array(PickItemSchema),
  completedAt: z.string().nullable(),
})
export type SlotPickup = z.infer<typeof SlotPickupSchema>

export const SlotBookingSchema = z.object({
  bookingId: z.number().int(),
  status: BookingStatusSchema,
  buyer: BuyerSchema,
  items: z.array(PickItemSchema),
  total: Fen,
})
export type SlotBooking = z.infer<typeof SlotBookingSchema>

export const CounterSlotSchema = z.object({
  slot: PickupSlotSchema,
  capacity: z.number().int(),
  /** Places taken (self-pickups and cash bookings together, as the slot counts keep them). */
  booked: z.number().int(),
  pickups: z.array(SlotPickupSchema),
  bookings: z.array(SlotBookingSchema),
})
export type CounterSlot = z.infer<typeof CounterSlotSchema>

export const CounterDaySchema = z.object({
  date: z.string(),
  /** The counter is shut that day (a closed weekday or date). */
  closed: z.boolean(),
  slots: z.array(CounterSlotSchema),
})
export type CounterDay = z.infer<typeof CounterDaySchema>

/**
 * Staff `GET /admin/fulfilment/pick-lists?date=&slot=` (the day's open pickups and cash bookings,
 * of one slot or all) or `?shipmentIds=1,2` (express shipments waiting to ship).
 */
export const PickListQuerySchema = z
  .object({
    date: z.iso.date().optional(),
    slot: PickupSlotSchema.optional(),
    shipmentIds: idListSchema(100, 'comma-separated shipment ids')
      .transform((ids) => [...new Set(ids)])
      .optional(),
  })
  .refine((q) => (q.date === undefined) !== (q.shipmentIds === undefined), {
    message: 'either date (and slot) or shipmentIds',
    path: ['date'],
  })
  .refine((q) => q.slot === undefined || q.date !== undefined, {
    message: 'slot needs a date',
    path: ['slot'],
  })
export type PickListQuery = z.infer<typeof PickListQuerySchema>

export const PICK_SHEET_KINDS = ['express', 'pickup', 'booking'] as const

/** One shipment or booking on the pick list: one sheet of paper. */
export const PickSheetSchema = z.object({
  kind: z.enum(PICK_SHEET_KINDS),
  /** The shipment's or the booking's id. */
  id: z.number().int(),
  buyerDisplay: z.string(),
  /** Masked (138****5678): the sheet lies on a packing table. */
  buyerMobile: z.string(),
  /** Express: where it goes (the recipient's mobile masked too). */
  address: ShipmentAddressSchema.nullable(),
  insured: z.boolean(),
  /** A shipment: the goods' value (what the insurance covers when insured). */
  declaredValue: Fen.nullable(),
  /** Pickup and booking: the day and slot at the counter. */
  date: z.string().nullable(),
  slot: PickupSlotSchema.nullable(),
  /** A cash booking: the cash to take. */
  cash: Fen.nullable(),
  items: z.array(PickItemSchema),
})
export type PickSheet = z.infer<typeof PickSheetSchema>

export const PickListSchema = z.object({
  house: z.string(),
  /** The day of the counter's list, or the day the list was made (express). */
  date: z.string(),
  slot: PickupSlotSchema.nullable(),
  generatedAt: z.string(),
  sheets: z.array(PickSheetSchema),
})
export type PickList = z.infer<typeof PickListSchema>

export { PICKUP_SLOTS }
