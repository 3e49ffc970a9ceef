import { z } from 'zod'
import { IdParamSchema, IdSchema, idListPattern, pageSchema, plainText } from './api'
import { OrderItemSchema, OrderSchema } from './orders'
import { PayPasswordSchema } from './payment'

/**
 * Delivery of paid goods in storage (DESIGN §6, §9 "Delivery"; spec §7 "Orders"): express to an
 * address, self-pickup by appointment, and counter cash bookings. Amounts in fen; instants
 * ISO-8601 UTC; a date is a China calendar day `YYYY-MM-DD`. The fee rules are
 * packages/domain/src/delivery.ts, the order statuses packages/domain/src/order-status.ts.
 * Refusals: `ORDER_NOT_SHIPPABLE`, `EXIT_BANNED`, `SLOT_FULL`, `SLOT_UNAVAILABLE`,
 * `ORDER_NOT_BOOKABLE`, `ORDER_NOT_RECEIVABLE`; another user's order or shipment is a 404.
 */
const Fen = z.number().int()

export const DELIVERY_METHODS = ['express', 'pickup'] as const
export const DeliveryMethodSchema = z.enum(DELIVERY_METHODS)
export type DeliveryMethod = z.infer<typeof DeliveryMethodSchema>

/**
 * The counter's appointment slots (China time), the same on every open day, for self-pickup and
 * for counter cash bookings alike. The capacity, bookable days and closed days are rules
 * (packages/domain/src/delivery.ts).
 */
export const PICKUP_SLOTS = ['10:00-12:00', '13:30-15:30', '15:30-17:30'] as const
export const PickupSlotSchema = z.enum(PICKUP_SLOTS)
export type PickupSlot = z.infer<typeof PickupSlotSchema>

/** At most this many orders in one shipment or booking. */
export const DELIVERY_MAX_ORDERS = 50

export const DeliveryOrderIdsSchema = z
  .array(IdSchema)
  .min(1)
  .max(DELIVERY_MAX_ORDERS)
  .refine((ids) => new Set(ids).size === ids.length, 'an order is named twice')

/** Order ids in a query string: `orderIds=1,2,3`. */
export const OrderIdsParamSchema = z
  .string()
  .regex(idListPattern(50), 'comma-separated order ids')
  .transform((ids) => ids.split(',').map(Number))
  .pipe(DeliveryOrderIdsSchema)

/**
 * `POST /api/user/logistic/delivery/apply`: the chosen paid orders in storage go out in one
 * shipment — `express` needs `addressId` (`insured` adds the insurance fee), `pickup` needs
 * `pickupDate` and `pickupSlot`. The fees (`total` of the quote) are taken from the balance at
 * once (docs/decisions/015): when the total is above 0, `payPassword` is required and checked as
 * doPay checks it (`PAY_PASSWORD_WRONG`, `PAY_LOCKED`, `PAY_PASSWORD_NOT_SET`; `BALANCE_LOW`).
 * `Idempotency-Key` honoured (a decided key replays without the password).
 */
export const DeliveryApplySchema = z
  .object({
    orderIds: DeliveryOrderIdsSchema,
    method: DeliveryMethodSchema,
    addressId: IdSchema.optional(),
    pickupDate: z.iso.date().optional(),
    pickupSlot: PickupSlotSchema.optional(),
    insured: z.boolean().default(false),
    payPassword: PayPasswordSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.method === 'express' && body.addressId === undefined) {
      ctx.addIssue({ code: 'custom', message: 'express needs an address', path: ['addressId'] })
    }
    if (body.method === 'pickup') {
      if (body.pickupDate === undefined) {
        ctx.addIssue({ code: 'custom', message: 'pickup needs a date', path: ['pickupDate'] })
      }
      if (body.pickupSlot === undefined) {
        ctx.addIssue({ code: 'custom', message: 'pickup needs a slot', path: ['pickupSlot'] })
      }
    }
  })
export type DeliveryApply = z.infer<typeof DeliveryApplySchema>

/** `total = shippingFee + insuranceFee + storageFee` (0 fees for a pickup but storage). */
export const DeliveryAppliedSchema = z.object({
  shipmentId: z.number().int(),
  method: DeliveryMethodSchema,
  shippingFee: Fen,
  insuranceFee: Fen,
  /** Storage beyond the free days, up to the application (fixed from then on). */
  storageFee: Fen,
  total: Fen,
})
export type DeliveryApplied = z.infer<typeof DeliveryAppliedSchema>

/** `POST /user/booking/bookingApply`: pay cash for unpaid orders at the counter, then take them. */
export const BookingApplySchema = z.object({
  orderIds: DeliveryOrderIdsSchema,
  date: z.iso.date(),
  slot: PickupSlotSchema,
})
export type BookingApply = z.infer<typeof BookingApplySchema>
export const BookingAppliedSchema = z.object({ bookingId: z.number().int() })
export type BookingApplied = z.infer<typeof BookingAppliedSchema>

/** Staff `POST /admin/shipments/{id}/ship`. */
export const ShipmentShipSchema = z.object({
  carrier: plainText(1, 40),
  trackingNo: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{4,40}$/, '4–40 letters, digits or dashes'),
})
export type ShipmentShip = z.infer<typeof ShipmentShipSchema>

/** `POST /user/upLogisticStatus`: the buyer confirms receipt of a shipped shipment. */
export const ConfirmReceiptSchema = z.object({ shipmentId: IdSchema })
export type ConfirmReceipt = z.infer<typeof ConfirmReceiptSchema>

export const SHIPMENT_STATUSES = ['applied', 'shipped', 'completed'] as const
export const ShipmentStatusSchema = z.enum(SHIPMENT_STATUSES)
export type ShipmentStatus = z.infer<typeof ShipmentStatusSchema>

/**
 * What staff ship, hand over or confirm, and the buyer's confirmation, answer with: the shipment's
 * new status and the orders it moved.
 */
export const ShipmentChangedSchema = z.object({
  shipmentId: z.number().int(),
  status: ShipmentStatusSchema,
  orderIds: z.array(z.number().int()),
})
export type ShipmentChanged = z.infer<typeof ShipmentChangedSchema>

/** Where an express shipment goes, as it was when applied (a later address edit changes nothing). */
export const ShipmentAddressSchema = z.object({
  name: z.string(),
  mobile: z.string(),
  country: z.string(),
  province: z.string(),
  city: z.string(),
  detail: z.string(),
})
export type ShipmentAddress = z.infer<typeof ShipmentAddressSchema>

/** `GET /user/{id}/@logistic`: one of the caller's shipments. */
export const ShipmentSchema = z.object({
  id: z.number().int(),
  method: DeliveryMethodSchema,
  status: ShipmentStatusSchema,
  orderIds: z.array(z.number().int()),
  items: z.array(OrderItemSchema),
  /** Express only. */
  address: ShipmentAddressSchema.nullable(),
  /** Pickup only. */
  pickupDate: z.string().nullable(),
  pickupSlot: PickupSlotSchema.nullable(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  insured: z.boolean(),
  /** The goods' value the insurance covers: the orders' totals. */
  declaredValue: Fen,
  shippingFee: Fen,
  insuranceFee: Fen,
  storageFee: Fen,
  total: Fen,
  appliedAt: z.string(),
  shippedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** When a shipped shipment completes by itself (15 days after shipping); null otherwise. */
  autoCompleteAt: z.string().nullable(),
})
export type Shipment = z.infer<typeof ShipmentSchema>
export const ShipmentIdParamsSchema = z.object({ id: IdParamSchema })

/** `GET /user/queryAuctionList?shipmentId=`: the receive detail — a shipment and its orders. */
export const ReceiveDetailQuerySchema = z.object({ shipmentId: IdParamSchema })
export const ReceiveDetailSchema = z.object({
  shipment: ShipmentSchema,
  /** The shipment's orders in full (what was bought, what was paid), by id. */
  orders: z.array(OrderSchema),
})
export type ReceiveDetail = z.infer<typeof ReceiveDetailSchema>

/** Staff `GET /admin/shipments?status=&method=`: shipments to act on, oldest application first. */
export const StaffShipmentsQuerySchema = z.object({
  status: ShipmentStatusSchema.optional(),
  method: DeliveryMethodSchema.optional(),
})
export type StaffShipmentsQuery = z.infer<typeof StaffShipmentsQuerySchema>
export const StaffShipmentSchema = ShipmentSchema.extend({
  userId: z.number().int(),
  /** The buyer's display name and mobile, for the counter and the courier. */
  userDisplay: z.string(),
  userMobile: z.string(),
})
export type StaffShipment = z.infer<typeof StaffShipmentSchema>

/**
 * `GET /api/user/logistic/waiting` (waiting to receive: shipped) and
 * `GET /api/user/logistic/completed` (shipped/pickup records), newest first.
 */
export const ShipmentsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
})
export type ShipmentsQuery = z.infer<typeof ShipmentsQuerySchema>
export const ShipmentsPageSchema = pageSchema(ShipmentSchema)
export type ShipmentsPage = z.infer<typeof ShipmentsPageSchema>

export const BOOKING_STATUSES = ['booked', 'completed', 'cancelled'] as const
export const BookingStatusSchema = z.enum(BOOKING_STATUSES)
export type BookingStatus = z.infer<typeof BookingStatusSchema>

/** One counter cash booking, as `GET /user/booking/queryBookingList` lists them (newest first). */
export const BookingSchema = z.object({
  id: z.number().int(),
  status: BookingStatusSchema,
  date: z.string(),
  slot: PickupSlotSchema,
  orderIds: z.array(z.number().int()),
  items: z.array(OrderItemSchema),
  /** The cash to bring: the orders' totals. */
  total: Fen,
  createdAt: z.string(),
  completedAt: z.string().nullable(),
})
export type Booking = z.infer<typeof BookingSchema>
export const BookingsPageSchema = pageSchema(BookingSchema)
export type BookingsPage = z.infer<typeof BookingsPageSchema>

/** Staff `GET /admin/bookings?date=&status=`: the counter's list for a day, soonest slot first. */
export const StaffBookingsQuerySchema = z.object({
  date: z.iso.date().optional(),
  status: BookingStatusSchema.optional(),
})
export type StaffBookingsQuery = z.infer<typeof StaffBookingsQuerySchema>
/** A booking as the counter sees it: whose it is. */
export const StaffBookingSchema = BookingSchema.extend({
  userId: z.number().int(),
  display: z.string(),
  mobile: z.string(),
})
export type StaffBooking = z.infer<typeof StaffBookingSchema>

/** Staff `POST /admin/bookings/{id}/complete`: cash taken, goods handed over. */
export const BookingCompletedSchema = z.object({
  bookingId: z.number().int(),
  status: z.literal('completed'),
  orderIds: z.array(z.number().int()),
})
export type BookingCompleted = z.infer<typeof BookingCompletedSchema>

/** `GET /user/3_3/logistic/queryKeepFee?value=`: the insurance fee for a declared value. */
export const KeepFeeQuerySchema = z.object({
  value: z.coerce.number().int().min(0).max(100_000_000_000_000),
})
export const KeepFeeSchema = z.object({
  value: Fen,
  fee: Fen,
  /** The rate in basis points and the minimum fee (operator settings). */
  rateBps: z.number().int(),
  minimum: Fen,
})
export type KeepFee = z.infer<typeof KeepFeeSchema>

/** `GET /user/3_3/logistic/queryExitBan?orderIds=&countryId=`: may these orders go there? */
export const ExitBanQuerySchema = z.object({
  orderIds: OrderIdsParamSchema,
  /** An ISO 3166-1 code, as `GET /pub/@country` lists them (`CN` first). */
  countryId: z.string().regex(/^[A-Z]{2}$/, 'a country code such as CN'),
  /** A province of CN (`810000` is Hong Kong, outside the mainland); optional. */
  provinceId: z
    .string()
    .regex(/^\d{6}$/, 'a six-digit division code')
    .optional(),
})
export const ExitBanSchema = z.object({
  allowed: z.boolean(),
  /** The orders holding an item that may not leave the mainland (empty when allowed). */
  bannedOrderIds: z.array(z.number().int()),
})
export type ExitBan = z.infer<typeof ExitBanSchema>

/** A paid order in storage, with what storing it has cost so far. */
export const StoredOrderSchema = z.object({
  order: OrderSchema,
  /** Free until then; a daily fee accrues from that instant. */
  storageFreeUntil: z.string(),
  storageFee: Fen,
  /** An item of the order may not leave the mainland. */
  exportBanned: z.boolean(),
})
export type StoredOrder = z.infer<typeof StoredOrderSchema>

/** One open day's slots with the places left. */
export const PickupDaySchema = z.object({
  date: z.string(),
  slots: z.array(z.object({ slot: PickupSlotSchema, remaining: z.number().int() })),
})
export type PickupDay = z.infer<typeof PickupDaySchema>

/**
 * `GET /api/user/logistic/delivery/query?orderIds=&addressId=&insured=`: the apply-to-ship
 * screen. Without `orderIds`, `quote` is null; with them (and `addressId` for express), it is what
 * applying would cost.
 */
export const DeliveryQueryQuerySchema = z.object({
  orderIds: OrderIdsParamSchema.optional(),
  addressId: IdParamSchema.optional(),
  insured: z.enum(['0', '1', 'true', 'false']).optional(),
})
export type DeliveryQueryQuery = z.infer<typeof DeliveryQueryQuerySchema>

export const DeliveryQuoteSchema = z.object({
  orderIds: z.array(z.number().int()),
  declaredValue: Fen,
  /** Null without an address (pickup is free of shipping). */
  shippingFee: Fen.nullable(),
  insuranceFee: Fen,
  storageFee: Fen,
  total: Fen,
  /** The address is outside the mainland and an item may not leave it (`EXIT_BANNED`). */
  exitBanned: z.boolean(),
})
export type DeliveryQuote = z.infer<typeof DeliveryQuoteSchema>

export const DeliveryInfoSchema = z.object({
  /** The caller's paid orders in storage (status `paid`), oldest payment first. */
  orders: z.array(StoredOrderSchema),
  quote: DeliveryQuoteSchema.nullable(),
  /** The bookable days ahead, for pickup and counter cash. */
  pickupDays: z.array(PickupDaySchema),
  /** Where pickups and counter payments happen. */
  counterAddress: z.string(),
  rates: z.object({
    insuranceRateBps: z.number().int(),
    insuranceMinimum: Fen,
    storageFreeDays: z.number().int(),
    storageFeePerDay: Fen,
  }),
})
export type DeliveryInfo = z.infer<typeof DeliveryInfoSchema>
