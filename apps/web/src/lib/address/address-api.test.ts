import type { Address } from '@numisma/contracts/address'
import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { beforeEach, describe, expect, it } from 'vitest'
import { vi } from 'vitest'
import { ApiError } from '../api-client'
import { fakeServer as server, lastCall, resetFakeServer } from '../../test/fake-api-client'
import {
  createAddress,
  deleteAddress,
  deleteAddressMutationOptions,
  getAddress,
  getAddresses,
  getAddressesQueryOptions,
  saveAddressMutationOptions,
  setDefaultAddress,
  setDefaultAddressMutationOptions,
  updateAddress,
} from './addresses'
import { ADDRESSES_KEY, REGIONS_KEY } from './query-keys'
import {
  getCities,
  getCitiesQueryOptions,
  getCountries,
  getCountriesQueryOptions,
  getProvinces,
} from './regions'

vi.mock('../api-client', async (importOriginal) =>
  (await import('../../test/fake-api-client')).fakeApiClient(await importOriginal()),
)

beforeEach(resetFakeServer)

const buildAddress = (overrides: Partial<Address> = {}): Address => ({
  id: 7,
  name: '张三',
  mobile: '13800138000',
  countryId: 'CN',
  countryName: '中国',
  provinceId: '110000',
  provinceName: '北京市',
  cityId: '110105',
  cityName: '朝阳区',
  detail: '建国路88号',
  isDefault: true,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...overrides,
})
const input = {
  name: '张三',
  mobile: '13800138000',
  countryId: 'CN',
  provinceId: '110000',
  cityId: '110105',
  detail: '建国路88号',
}

describe('address calls', () => {
  it('reads the list and one address with the spec §8 defaults', async () => {
    server.reply = [buildAddress()]
    await expect(getAddresses()).resolves.toEqual([buildAddress()])
    expect(lastCall()).toMatchObject({
      path: '/user/address',
      defaultError: 'GET_ADDRESS_LIST_FAILED',
    })
    server.reply = buildAddress()
    await expect(getAddress(7)).resolves.toEqual(buildAddress())
    expect(lastCall()).toMatchObject({
      path: '/user/address/@getaddress/7',
      defaultError: 'GET_ADDRESS_FAILED',
    })
  })

  it('writes with the spec §8 default of each action', async () => {
    server.reply = buildAddress()
    await createAddress(input)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/address',
      body: input,
      defaultError: 'ADDRESS_ADD_FAILED',
    })
    await updateAddress(7, input)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/address/7',
      defaultError: 'ADDRESS_UPDATE_FAILED',
    })
    await setDefaultAddress(7)
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/address/@defaddress/7',
      defaultError: 'ADDRESS_SET_FAILED',
    })
    server.reply = { id: 7 }
    await expect(deleteAddress(7)).resolves.toEqual({ id: 7 })
    expect(lastCall()).toMatchObject({
      method: 'DELETE',
      path: '/user/address/7',
      defaultError: 'ADDRESS_DELETE_FAILED',
    })
  })

  it('refuses an address whose shape is not the contract’s', async () => {
    server.reply = [{ ...buildAddress(), isDefault: 'yes' }]
    await expect(getAddresses()).rejects.toThrow()
  })

  it('reads the regions with their own defaults, the country list keyed by language', async () => {
    server.reply = [{ id: 'CN', name: '中国' }]
    await expect(getCountries()).resolves.toEqual([{ id: 'CN', name: '中国' }])
    expect(lastCall()).toMatchObject({ path: '/pub/@country', defaultError: 'GET_COUNTRY_FAILED' })
    await getProvinces('CN')
    expect(lastCall()).toMatchObject({
      path: '/pub/@province',
      query: { countryId: 'CN' },
      defaultError: 'GET_PROVINCE_FAILED',
    })
    await getCities('110000')
    expect(lastCall()).toMatchObject({
      path: '/pub/@city',
      query: { provinceId: '110000' },
      defaultError: 'GET_CITY_FAILED',
    })
    expect(getCountriesQueryOptions('en').queryKey).not.toEqual(
      getCountriesQueryOptions('zh-CN').queryKey,
    )
    expect(getCitiesQueryOptions('110000').queryKey.slice(0, 1)).toEqual([...REGIONS_KEY])
  })
})

describe('address mutations own the cache', () => {
  const run = async (options: object, client: QueryClient, variables: unknown) => {
    const observer = new MutationObserver(client, options)
    return observer.mutate(variables as never).catch((error: unknown) => error)
  }
  const primed = () => {
    const client = new QueryClient()
    client.setQueryData(getAddressesQueryOptions().queryKey, [buildAddress()])
    return client
  }
  const stale = (client: QueryClient) =>
    client.getQueryState(getAddressesQueryOptions().queryKey)?.isInvalidated

  it('refreshes the list after a save, a delete and a set-default', async () => {
    for (const [factory, variables] of [
      [saveAddressMutationOptions, { input }],
      [deleteAddressMutationOptions, 7],
      [setDefaultAddressMutationOptions, 7],
    ] as const) {
      const client = primed()
      server.reply = factory === deleteAddressMutationOptions ? { id: 7 } : buildAddress()
      await run(factory(client), client, variables)
      expect(stale(client)).toBe(true)
    }
  })

  it('creates without an id and updates with one', async () => {
    const client = primed()
    server.reply = buildAddress()
    await run(saveAddressMutationOptions(client), client, { input })
    expect(lastCall().path).toBe('/user/address')
    await run(saveAddressMutationOptions(client), client, { id: 7, input })
    expect(lastCall().path).toBe('/user/address/7')
  })

  it('refreshes after a refusal, not after a call that never left the phone', async () => {
    const client = primed()
    server.failure = new ApiError('NOT_FOUND', 404, 'gone')
    await run(setDefaultAddressMutationOptions(client), client, 7)
    expect(stale(client)).toBe(true)
    const offline = primed()
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    await run(setDefaultAddressMutationOptions(offline), offline, 7)
    expect(stale(offline)).toBe(false)
    expect(ADDRESSES_KEY).toEqual(['addresses'])
  })
})
