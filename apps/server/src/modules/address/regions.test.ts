import { describe, expect, it } from 'vitest'
import { packagedRegions, Regions } from './regions'

/** A slice of the divisions' shape: a municipality, a province with a pseudo-prefecture, Taiwan. */
const divisions = [
  {
    code: '110000',
    name: '北京市',
    province: '11',
    children: [{ code: '110101', name: '东城区', province: '11', city: '01' }],
  },
  {
    code: '420000',
    name: '湖北省',
    province: '42',
    children: [
      { code: '420100', name: '武汉市', province: '42', city: '01' },
      {
        code: '429000',
        name: '湖北省-自治区直辖县级行政区划',
        province: '42',
        city: '90',
        children: [{ code: '429004', name: '仙桃市', province: '42', city: '90', area: '04' }],
      },
    ],
  },
  { code: '710000', name: '台湾省', province: '71' },
]
const countries = {
  zh: { CN: '中国', US: '美国', DE: '德国', TW: '中国台湾省' },
  en: { CN: "People's Republic of China", US: 'United States', DE: 'Germany', TW: 'Taiwan' },
}

describe('Regions', () => {
  const regions = new Regions(divisions, countries)

  it('puts China first, sorts the rest by name in the language, and drops provinces of CN', () => {
    expect(regions.countries('zh').map((c) => c.id)).toEqual(['CN', 'DE', 'US'])
    expect(regions.countries('en').map((c) => c.name)).toEqual([
      "People's Republic of China",
      'Germany',
      'United States',
    ])
  })

  it('lifts county-level cities out of the pseudo-prefecture', () => {
    expect(regions.province('420000')?.cities).toEqual([
      { id: '420100', name: '武汉市' },
      { id: '429004', name: '仙桃市' },
    ])
  })

  it('knows provinces only for China, none for other countries, nothing for unknown ones', () => {
    expect(regions.provinces('CN')?.map((p) => p.id)).toEqual(['110000', '420000', '710000'])
    expect(regions.provinces('US')).toEqual([])
    expect(regions.provinces('ZZ')).toBeUndefined()
    expect(regions.province('710000')?.cities).toEqual([])
  })

  it('loads the packages: every province has a unique code, cities carry its prefix', () => {
    const real = packagedRegions()
    const provinces = real.provinces('CN') ?? []
    expect(provinces.length).toBe(34)
    const ids = new Set<string>()
    for (const { id } of provinces) {
      for (const city of real.province(id)?.cities ?? []) {
        expect(city.id.slice(0, 2)).toBe(id.slice(0, 2))
        expect(ids.has(city.id)).toBe(false)
        ids.add(city.id)
      }
    }
    expect(ids.size).toBeGreaterThan(300)
  })
})
