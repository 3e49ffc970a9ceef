import { describe, expect, it } from 'vitest'
import {
  addressLine,
  chinaToday,
  itemNumber,
  itemSpecial,
  pickListRequestOf,
  pickListSearch,
} from './format'

const words = {
  lotNo: (n: number) => `第 ${n} 号`,
  lotId: (n: number) => `拍品 ${n}`,
  productNo: (no: string) => `货号 ${no}`,
  special: (title: string) => `《${title}》`,
}

describe('fulfilment formatting', () => {
  it('names a lot by its number and id, a mall item by its product number', () => {
    expect(itemNumber({ lotNo: 3, lotId: 41, productNo: null }, words)).toBe('第 3 号 · 拍品 41')
    expect(itemNumber({ lotNo: null, lotId: null, productNo: 'M0012' }, words)).toBe('货号 M0012')
  })

  it('names the special a lot was sold in, and none for a mall item', () => {
    expect(itemSpecial({ specialTitle: '民国机制币专场' }, words)).toBe('《民国机制币专场》')
    expect(itemSpecial({ specialTitle: null }, words)).toBeNull()
    expect(itemSpecial({ specialTitle: '  ' }, words)).toBeNull()
  })

  it('writes a mainland address without its country, one abroad with it', () => {
    const address = { country: '中国', province: '北京市', city: '朝阳区', detail: '建国路88号' }
    expect(addressLine(address)).toBe('北京市 朝阳区 建国路88号')
    expect(addressLine({ country: '日本', province: '', city: '', detail: 'Tokyo 1-1' })).toBe(
      '日本 Tokyo 1-1',
    )
  })

  it("takes today's China day: 20:00 UTC is already the next day in Shanghai", () => {
    expect(chinaToday(Date.parse('2026-11-26T20:00:00Z'))).toBe('2026-11-27')
    expect(chinaToday(Date.parse('2026-11-26T10:00:00Z'))).toBe('2026-11-26')
  })

  it('reads and writes the pick list page address', () => {
    const today = '2026-11-26'
    expect(pickListRequestOf(new URLSearchParams('shipmentIds=4,2,4,x'), today)).toEqual({
      shipmentIds: [4, 2],
    })
    expect(
      pickListRequestOf(new URLSearchParams('date=2026-11-27&slot=13:30-15:30'), today),
    ).toEqual({
      date: '2026-11-27',
      slot: '13:30-15:30',
    })
    expect(pickListRequestOf(new URLSearchParams('date=junk&slot=9-10'), today)).toEqual({
      date: today,
      slot: undefined,
    })
    expect(pickListSearch({ date: '2026-11-27', slot: '10:00-12:00' })).toBe(
      '?date=2026-11-27&slot=10%3A00-12%3A00',
    )
    expect(pickListSearch({ shipmentIds: [1, 2] })).toBe('?shipmentIds=1%2C2')
  })
})
