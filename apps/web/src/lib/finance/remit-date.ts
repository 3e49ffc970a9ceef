import { formatChinaDate } from '@numisma/contracts/dates'

/**
 * The remittance date is a calendar day in China (the bank slip's date), sent as YYYY-MM-DD. The
 * date picker works in the phone's own zone, so a day travels to and from it by its fields, never
 * through an instant (a phone set to New York must not send yesterday).
 */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Today in China. */
export function chinaToday(nowMs: number): string {
  return formatChinaDate(nowMs, 'YYYY-MM-DD')
}

/** A day as the picker's Date (local midnight of that day). */
export function dayToPickerDate(day: string): Date {
  const m = DAY.exec(day)
  if (!m) throw new RangeError(`not a day: ${day}`)
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
}

/** The day the picker shows, whatever the zone. */
export function pickerDateToDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The earliest day a notice may name: a transfer is reported within a year. */
export function earliestRemitDay(today: string): string {
  const date = dayToPickerDate(today)
  date.setFullYear(date.getFullYear() - 1)
  return pickerDateToDay(date)
}
