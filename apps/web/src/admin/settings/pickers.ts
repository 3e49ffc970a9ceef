import dayjs, { type Dayjs } from 'dayjs'
import { chinaWallToIso, isoToChinaWall } from './format'

/**
 * A picker's value (its wall clock read as China time) as ISO. ProForm hands date fields to
 * `onFinish` as `YYYY-MM-DD HH:mm:ss` text by default, a Dayjs elsewhere: both read the same.
 */
export function pickedIso(value: Dayjs | string): string {
  const d = dayjs(value)
  return chinaWallToIso({
    year: d.year(),
    month: d.month(),
    date: d.date(),
    hour: d.hour(),
    minute: d.minute(),
  })
}

/** An instant as a picker's value showing its China wall clock. */
export function pickerValue(iso: string): Dayjs {
  const w = isoToChinaWall(iso)
  return dayjs(new Date(w.year, w.month, w.date, w.hour, w.minute))
}
