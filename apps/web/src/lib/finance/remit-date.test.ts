import { describe, expect, it } from 'vitest'
import { chinaToday, dayToPickerDate, earliestRemitDay, pickerDateToDay } from './remit-date'

describe('remittance dates', () => {
  it('takes today in China time, not the phone’s', () => {
    // 2030-01-01 17:30 UTC is already 2 January in China.
    expect(chinaToday(Date.UTC(2030, 0, 1, 17, 30))).toBe('2030-01-02')
    expect(chinaToday(Date.UTC(2030, 0, 1, 15, 59))).toBe('2030-01-01')
  })

  it('moves a day to and from the picker by its fields', () => {
    for (const day of ['2030-01-02', '2028-02-29', '2030-12-31']) {
      expect(pickerDateToDay(dayToPickerDate(day))).toBe(day)
    }
    expect(() => dayToPickerDate('2030/01/02')).toThrow()
  })

  it('lets a notice go back a year', () => {
    expect(earliestRemitDay('2030-01-02')).toBe('2029-01-02')
  })
})
