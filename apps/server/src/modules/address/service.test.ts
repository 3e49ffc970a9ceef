import { ADDRESS_LIMIT, type AddressFields } from '@numisma/contracts/address'
import { beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import type { AppError } from '../../platform/errors'
import type { Tx } from '../../platform/transactions'
import { Regions } from './regions'
import type { AddressChanges, AddressRepository, AddressRow, NewAddressRow } from './repository'
import { AddressService } from './service'

/** The repository in memory: rows in an array, the lock a no-op (one test runs at a time). */
class FakeAddresses implements Pick<AddressRepository, keyof AddressRepository> {
  rows: AddressRow[] = []
  private nextId = 1
  lockOwner(): Promise<void> {
    return Promise.resolve()
  }
  list(userId: number): Promise<AddressRow[]> {
    return Promise.resolve(
      this.rows
        .filter((r) => r.user_id === userId)
        .sort((a, b) => b.is_default - a.is_default || b.id - a.id),
    )
  }
  find(userId: number, id: number): Promise<AddressRow | undefined> {
    return Promise.resolve(this.rows.find((r) => r.id === id && r.user_id === userId))
  }
  count(_tx: Tx, userId: number): Promise<number> {
    return Promise.resolve(this.rows.filter((r) => r.user_id === userId).length)
  }
  insert(_tx: Tx, row: NewAddressRow): Promise<number> {
    const id = this.nextId++
    this.rows.push({ ...row, id, is_default: row.is_default ?? 0 } as AddressRow)
    return Promise.resolve(id)
  }
  update(_tx: Tx, userId: number, id: number, changes: AddressChanges): Promise<void> {
    const row = this.rows.find((r) => r.id === id && r.user_id === userId)
    if (row) Object.assign(row, changes)
    return Promise.resolve()
  }
  remove(_tx: Tx, userId: number, id: number): Promise<void> {
    this.rows = this.rows.filter((r) => !(r.id === id && r.user_id === userId))
    return Promise.resolve()
  }
  makeDefault(_tx: Tx, userId: number, id: number): Promise<void> {
    for (const row of this.rows) {
      if (row.user_id === userId) row.is_default = row.id === id ? 1 : 0
    }
    return Promise.resolve()
  }
  newest(_tx: Tx, userId: number): Promise<number | undefined> {
    const ids = this.rows.filter((r) => r.user_id === userId).map((r) => r.id)
    return Promise.resolve(ids.length ? Math.max(...ids) : undefined)
  }
}

const regions = new Regions(
  [
    {
      code: '310000',
      name: '上海市',
      province: '31',
      children: [{ code: '310115', name: '浦东新区', province: '31', city: '01' }],
    },
    {
      code: '440000',
      name: '广东省',
      province: '44',
      children: [{ code: '440300', name: '深圳市', province: '44', city: '03' }],
    },
    { code: '710000', name: '台湾省', province: '71' },
  ],
  { zh: { CN: '中国', FR: '法国' }, en: { CN: 'China', FR: 'France' } },
)

const fields = (overrides: Partial<AddressFields> = {}): AddressFields => ({
  name: '王五',
  mobile: '13700137000',
  countryId: 'CN',
  provinceId: '310000',
  cityId: '310115',
  detail: '世纪大道100号',
  ...overrides,
})

const codeOf = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work
    return 'ok'
  } catch (caught: unknown) {
    const error = caught as AppError
    const fields = error.details?.fields
    return fields ? `${error.code} ${JSON.stringify(fields)}` : error.code
  }
}

describe('AddressService', () => {
  let repo: FakeAddresses
  let service: AddressService

  beforeEach(() => {
    repo = new FakeAddresses()
    service = new AddressService({
      transact: (work) => work({} as Tx),
      clock: new FakeClock(Date.parse('2030-01-01T00:00:00Z')),
      addresses: repo,
      regions,
    })
  })

  it('makes the first address the default and moves it when asked', async () => {
    const first = await service.create(1, fields({ isDefault: false }), 'zh')
    expect(first).toMatchObject({ isDefault: true, provinceName: '上海市', cityName: '浦东新区' })
    const second = await service.create(1, fields({ isDefault: true }), 'zh')
    expect((await service.list(1, 'zh')).map((a) => [a.id, a.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ])
  })

  it('passes the default to the newest remaining address when it is deleted', async () => {
    const a = await service.create(1, fields(), 'zh')
    const b = await service.create(1, fields(), 'zh')
    const c = await service.create(1, fields(), 'zh')
    await service.setDefault(1, b.id, 'zh')
    await service.remove(1, b.id)
    expect((await service.list(1, 'zh')).find((x) => x.isDefault)?.id).toBe(c.id)
    await service.remove(1, a.id)
    expect((await service.list(1, 'zh')).map((x) => x.isDefault)).toEqual([true])
  })

  it('refuses the address after the limit', async () => {
    for (let i = 0; i < ADDRESS_LIMIT; i++) await service.create(1, fields(), 'zh')
    expect(await codeOf(service.create(1, fields(), 'zh'))).toBe('ADDRESS_LIMIT')
    expect(await codeOf(service.create(2, fields(), 'zh'))).toBe('ok')
  })

  it('answers NOT_FOUND for another user’s address on every call', async () => {
    const { id } = await service.create(1, fields(), 'zh')
    expect(await codeOf(service.get(2, id, 'zh'))).toBe('NOT_FOUND')
    expect(await codeOf(service.update(2, id, fields(), 'zh'))).toBe('NOT_FOUND')
    expect(await codeOf(service.remove(2, id))).toBe('NOT_FOUND')
    expect(await codeOf(service.setDefault(2, id, 'zh'))).toBe('NOT_FOUND')
    expect(repo.rows).toHaveLength(1)
  })

  it('checks the region against the data and names the field', async () => {
    const refused = (overrides: Partial<AddressFields>) =>
      codeOf(service.create(1, fields(overrides), 'zh'))
    expect(await refused({ cityId: '440300' })).toBe(
      'ADDRESS_REGION_INVALID [{"field":"body.cityId","message":"not a city of the province"}]',
    )
    expect(await refused({ provinceId: undefined })).toContain('body.provinceId')
    expect(await refused({ cityId: null })).toContain('body.cityId')
    expect(await refused({ countryId: 'XX', provinceId: null, cityId: null })).toContain(
      'body.countryId',
    )
    expect(await refused({ countryId: 'FR', cityId: null })).toContain('body.provinceId')
    expect(repo.rows).toEqual([])
  })

  it('takes a province without a city level, and another country without either', async () => {
    const taiwan = await service.create(1, fields({ provinceId: '710000', cityId: null }), 'zh')
    expect(taiwan).toMatchObject({ provinceName: '台湾省', cityId: null })
    const france = await service.create(
      1,
      fields({ countryId: 'FR', provinceId: null, cityId: null }),
      'en',
    )
    expect(france).toMatchObject({ countryName: 'France', provinceId: null, cityName: null })
  })
})
