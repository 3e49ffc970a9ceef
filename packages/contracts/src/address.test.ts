import { describe, expect, it } from 'vitest'
import { AddressInputSchema, isMainland } from './address'

const input = {
  name: '张三',
  mobile: '13800138000',
  countryId: 'CN',
  provinceId: '440000',
  cityId: '440300',
  detail: '深南大道1号',
}
const codes = (value: unknown) => {
  const parsed = AddressInputSchema.safeParse(value)
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}:${i.message}`)
}

describe('AddressInputSchema', () => {
  it('trims the text and upper-cases the country', () => {
    expect(AddressInputSchema.parse({ ...input, name: ' 张三 ', countryId: 'cn' })).toMatchObject({
      name: '张三',
      countryId: 'CN',
    })
  })

  it('names each bad field with its catalogue code', () => {
    expect(codes({ ...input, name: '', detail: '短', mobile: '1234' })).toEqual([
      'name:ADDRESS_NAME_INVALID',
      'mobile:MOBILE_INVALID',
      'detail:ADDRESS_DETAIL_INVALID',
      'mobile:MOBILE_INVALID',
    ])
    expect(codes({ ...input, name: 7 })).toEqual(['name:ADDRESS_NAME_INVALID'])
    expect(codes({ ...input, provinceId: '44' })).toEqual(['provinceId:ADDRESS_REGION_INVALID'])
  })

  it('asks a mainland mobile only where the address is in the mainland', () => {
    expect(codes({ ...input, mobile: '98765432' })).toEqual(['mobile:MOBILE_INVALID'])
    expect(codes({ ...input, provinceId: '810000', cityId: null, mobile: '98765432' })).toEqual([])
    expect(codes({ ...input, countryId: 'SG', provinceId: null, mobile: '+6598765432' })).toEqual(
      [],
    )
    expect(codes({ ...input, countryId: 'SG', mobile: '98-765' })).toEqual([
      'mobile:MOBILE_INVALID',
    ])
  })
})

describe('isMainland', () => {
  it('is CN outside Taiwan, Hong Kong and Macao', () => {
    expect(isMainland({ countryId: 'CN', provinceId: '110000' })).toBe(true)
    expect(isMainland({ countryId: 'CN', provinceId: '820000' })).toBe(false)
    expect(isMainland({ countryId: 'JP', provinceId: null })).toBe(false)
  })
})
