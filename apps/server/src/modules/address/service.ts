import {
  ADDRESS_LIMIT,
  type Address,
  type AddressFields,
  CHINA,
  type Region,
} from '@numisma/contracts/address'
import type { Locale } from '@numisma/contracts/errors'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact } from '../../platform/transactions'
import type { Regions } from './regions'
import type { AddressRepository, AddressRow } from './repository'

export interface AddressDeps {
  transact: Transact
  clock: Clock
  /** The repository's public methods, so a spec can pass an in-memory fake. */
  addresses: Pick<AddressRepository, keyof AddressRepository>
  regions: Regions
}

/** Where an address is, checked against the region data, with the names it is saved with. */
interface Placement {
  country_id: string
  province_id: string | null
  province_name: string | null
  city_id: string | null
  city_name: string | null
}

const regionInvalid = (field: string, reason: string) =>
  new AppError('ADDRESS_REGION_INVALID', { fields: [{ field: `body.${field}`, message: reason }] })

const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * Shipping addresses (spec §7 "Addresses", DESIGN §9 "Delivery"): one default per user while they
 * have any, at most ADDRESS_LIMIT, and a region that exists. Writes run under a lock on the owner
 * (the repository's `lockOwner`) and read the clock after it.
 */
export class AddressService {
  constructor(private readonly deps: AddressDeps) {}

  countries(locale: Locale): Region[] {
    return this.deps.regions.countries(locale)
  }

  /** A country's provinces ([] outside China); an unknown country is NOT_FOUND. */
  provinces(countryId: string): Region[] {
    const provinces = this.deps.regions.provinces(countryId)
    if (!provinces) throw new AppError('NOT_FOUND', { countryId })
    return provinces
  }

  /** A province's city level (districts for the municipalities); an unknown one is NOT_FOUND. */
  cities(provinceId: string): Region[] {
    const province = this.deps.regions.province(provinceId)
    if (!province) throw new AppError('NOT_FOUND', { provinceId })
    return province.cities
  }

  async list(userId: number, locale: Locale): Promise<Address[]> {
    const rows = await this.deps.addresses.list(userId)
    return rows.map((row) => this.toAddress(row, locale))
  }

  /** One of the caller's addresses; another user's is NOT_FOUND, as if it did not exist. */
  async get(userId: number, id: number, locale: Locale): Promise<Address> {
    const row = await this.deps.addresses.find(userId, id)
    if (!row) throw new AppError('NOT_FOUND', { id })
    return this.toAddress(row, locale)
  }

  /** A new address; the first one, or one asked to be, is the default. */
  async create(userId: number, input: AddressFields, locale: Locale): Promise<Address> {
    const placement = this.place(input)
    const { addresses, clock } = this.deps
    const id = await this.deps.transact(async (tx) => {
      await addresses.lockOwner(tx, userId)
      const count = await addresses.count(tx, userId)
      if (count >= ADDRESS_LIMIT) throw new AppError('ADDRESS_LIMIT', { limit: ADDRESS_LIMIT })
      const now = clock.now()
      const created = await addresses.insert(tx, {
        user_id: userId,
        name: input.name,
        mobile: input.mobile,
        detail: input.detail,
        ...placement,
        is_default: count === 0 ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      if (count > 0 && input.isDefault === true) {
        await addresses.makeDefault(tx, userId, created, now)
      }
      return created
    })
    return this.get(userId, id, locale)
  }

  /**
   * Replaces an address's fields. `isDefault: true` makes it the default; `false` cannot take the
   * flag away (the user would be left without one), so it is ignored.
   */
  async update(userId: number, id: number, input: AddressFields, locale: Locale): Promise<Address> {
    const placement = this.place(input)
    const { addresses, clock } = this.deps
    await this.deps.transact(async (tx) => {
      await addresses.lockOwner(tx, userId)
      const row = await addresses.find(userId, id, tx)
      if (!row) throw new AppError('NOT_FOUND', { id })
      const now = clock.now()
      await addresses.update(tx, userId, id, {
        name: input.name,
        mobile: input.mobile,
        detail: input.detail,
        ...placement,
        updated_at: now,
      })
      if (input.isDefault === true && row.is_default !== 1) {
        await addresses.makeDefault(tx, userId, id, now)
      }
    })
    return this.get(userId, id, locale)
  }

  /** Deletes an address; when it was the default, the newest remaining one takes over. */
  async remove(userId: number, id: number): Promise<{ id: number }> {
    const { addresses, clock } = this.deps
    await this.deps.transact(async (tx) => {
      await addresses.lockOwner(tx, userId)
      const row = await addresses.find(userId, id, tx)
      if (!row) throw new AppError('NOT_FOUND', { id })
      await addresses.remove(tx, userId, id)
      if (row.is_default !== 1) return
      const heir = await addresses.newest(tx, userId)
      if (heir !== undefined) await addresses.makeDefault(tx, userId, heir, clock.now())
    })
    return { id }
  }

  /** Makes one of the caller's addresses the default and clears the old one, in one transaction. */
  async setDefault(userId: number, id: number, locale: Locale): Promise<Address> {
    const { addresses, clock } = this.deps
    await this.deps.transact(async (tx) => {
      await addresses.lockOwner(tx, userId)
      const row = await addresses.find(userId, id, tx)
      if (!row) throw new AppError('NOT_FOUND', { id })
      await addresses.makeDefault(tx, userId, id, clock.now())
    })
    return this.get(userId, id, locale)
  }

  /**
   * Checks the region against the data: China needs a province of China and, where the province
   * has a city level, one of its cities; elsewhere there is no data to check, so none is taken.
   */
  private place(input: AddressFields): Placement {
    const { regions } = this.deps
    const provinceId = input.provinceId ?? null
    const cityId = input.cityId ?? null
    if (input.countryId !== CHINA) {
      if (regions.provinces(input.countryId) === undefined) {
        throw regionInvalid('countryId', 'unknown country')
      }
      if (provinceId !== null) throw regionInvalid('provinceId', 'the country has no provinces')
      if (cityId !== null) throw regionInvalid('cityId', 'the country has no cities')
      const none = { province_id: null, province_name: null, city_id: null, city_name: null }
      return { country_id: input.countryId, ...none }
    }
    if (provinceId === null) throw regionInvalid('provinceId', 'required for China')
    const province = regions.province(provinceId)
    if (!province) throw regionInvalid('provinceId', 'unknown province')
    if (province.cities.length === 0) {
      if (cityId !== null) throw regionInvalid('cityId', 'the province has no cities')
      return {
        country_id: CHINA,
        province_id: province.id,
        province_name: province.name,
        city_id: null,
        city_name: null,
      }
    }
    if (cityId === null) throw regionInvalid('cityId', 'required for China')
    const city = province.cities.find((c) => c.id === cityId)
    if (!city) throw regionInvalid('cityId', 'not a city of the province')
    return {
      country_id: CHINA,
      province_id: province.id,
      province_name: province.name,
      city_id: city.id,
      city_name: city.name,
    }
  }

  private toAddress(row: AddressRow, locale: Locale): Address {
    return {
      id: row.id,
      name: row.name,
      mobile: row.mobile,
      countryId: row.country_id,
      countryName: this.deps.regions.countryName(row.country_id, locale) ?? row.country_id,
      provinceId: row.province_id,
      provinceName: row.province_name,
      cityId: row.city_id,
      cityName: row.city_name,
      detail: row.detail,
      isDefault: row.is_default === 1,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }
  }
}
