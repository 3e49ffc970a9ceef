import { z } from 'zod'
import { plainText } from './api'
import type { ErrorCode } from './errors'

/**
 * Shipping addresses and the region pickers of DESIGN §9 "Delivery" (ADR 014). Region ids are
 * strings: a country is its ISO 3166-1 alpha-2 code (`CN` first in the list); a province or city is
 * its six-digit GB/T 2260 code. Province and city names are the divisions package's (Chinese), a
 * country's name is in the caller's language.
 */
export const CHINA = 'CN'

/** At most this many addresses per user (ADDRESS_LIMIT beyond). */
export const ADDRESS_LIMIT = 20

/**
 * Provinces of CN outside the mainland (GB/T 2260 71, 81, 82) with their own ISO 3166-1 codes:
 * the divisions list them as provinces, so the country list does not offer them again.
 */
export const OUTSIDE_MAINLAND: Readonly<Record<string, string>> = {
  '710000': 'TW',
  '810000': 'HK',
  '820000': 'MO',
}

/** Mainland mobile numbers: 11 digits starting with 1[3-9] (as at sign-in). */
export const MAINLAND_MOBILE = /^1[3-9]\d{9}$/
/** Any other phone: digits with an optional leading +, 6–20 digits. */
export const OVERSEAS_MOBILE = /^\+?\d{6,20}$/

/** True for an address in mainland China: where the mainland mobile rule and exit bans apply. */
export function isMainland(address: { countryId: string; provinceId?: string | null }): boolean {
  return (
    address.countryId === CHINA &&
    (address.provinceId == null || !Object.hasOwn(OUTSIDE_MAINLAND, address.provinceId))
  )
}

/** A picker entry: `GET /pub/@country|@province|@city` → `{ data: [ { id, name } ] }`. */
export const RegionSchema = z.object({ id: z.string(), name: z.string() })
export type Region = z.infer<typeof RegionSchema>

const CountryIdSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'ADDRESS_REGION_INVALID')
const DivisionIdSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'ADDRESS_REGION_INVALID')

export const ProvinceQuerySchema = z.object({ countryId: CountryIdSchema })
export const CityQuerySchema = z.object({ provinceId: DivisionIdSchema })

/**
 * A text field refused with one catalogue code (so the toast says what to fix), under the same
 * rule as every other typed text: `plainText` (trimmed, bounded, no control characters).
 */
function coded(rule: z.ZodType<string>, code: ErrorCode) {
  return z
    .string(code)
    .trim()
    .refine((value) => rule.safeParse(value).success, code)
}

export const ADDRESS_NAME = { min: 1, max: 25 } as const
export const ADDRESS_DETAIL = { min: 5, max: 120 } as const

/**
 * `POST /user/address` and `POST /user/address/{id}`. The mobile rule depends on where the
 * address is (mainland: 1[3-9] and 11 digits; elsewhere 6–20 digits with an optional +). Whether
 * the province and city exist and belong together is the server's check (the data lives there).
 */
export const AddressInputSchema = z
  .object({
    name: coded(plainText(ADDRESS_NAME.min, ADDRESS_NAME.max), 'ADDRESS_NAME_INVALID'),
    mobile: z.string('MOBILE_INVALID').trim().regex(OVERSEAS_MOBILE, 'MOBILE_INVALID'),
    countryId: CountryIdSchema,
    provinceId: DivisionIdSchema.nullish(),
    cityId: DivisionIdSchema.nullish(),
    detail: coded(plainText(ADDRESS_DETAIL.min, ADDRESS_DETAIL.max), 'ADDRESS_DETAIL_INVALID'),
    isDefault: z.boolean().optional(),
  })
  .superRefine((input, ctx) => {
    if (isMainland(input) && !MAINLAND_MOBILE.test(input.mobile)) {
      ctx.addIssue({ code: 'custom', path: ['mobile'], message: 'MOBILE_INVALID' })
    }
  })
export type AddressInput = z.input<typeof AddressInputSchema>
export type AddressFields = z.output<typeof AddressInputSchema>

/** An address as every address call returns it: the input's fields, resolved names, the default. */
export const AddressSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  countryId: z.string(),
  countryName: z.string(),
  provinceId: z.string().nullable(),
  provinceName: z.string().nullable(),
  cityId: z.string().nullable(),
  cityName: z.string().nullable(),
  detail: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Address = z.infer<typeof AddressSchema>

export const AddressIdSchema = z.object({ id: z.number().int() })
