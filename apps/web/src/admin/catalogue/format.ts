import { CHINA_OFFSET_MS, formatChinaDate } from '@numisma/contracts/dates'
import { formatFen, yuanToFen } from '@numisma/contracts/money'
import { isOnGrid, nearestOnGrid, type PriceStep } from '@numisma/domain/increments'

/** Fen as the yuan an InputNumber shows. */
export const yuanOf = (fen: number): number => fen / 100
/** Yuan typed into an InputNumber (precision 2) as fen. */
export const fenOf = (yuan: number): number => yuanToFen(yuan)

export const chinaTime = (iso: string): string => formatChinaDate(iso, 'YYYY-MM-DD HH:mm')

/** Wall-clock fields as a date picker (dayjs) holds them. */
export interface WallClock {
  year(): number
  month(): number
  date(): number
  hour(): number
  minute(): number
}

/** The instant a picked time names, read as China time whatever the desk computer's zone. */
export function pickedIso(picked: WallClock): string {
  return new Date(
    Date.UTC(picked.year(), picked.month(), picked.date(), picked.hour(), picked.minute()) -
      CHINA_OFFSET_MS,
  ).toISOString()
}

/** An instant as a local Date showing its China wall-clock time (what the picker displays). */
export function pickerDate(iso: string): Date {
  const d = new Date(Date.parse(iso) + CHINA_OFFSET_MS)
  return new Date(
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
  )
}

/** The nearest amounts (yuan text) when `fen` is off the grid; null when it is on it. */
export function offGrid(
  fen: number,
  steps: readonly PriceStep[],
): { below: string | null; above: string } | null {
  if (steps.length === 0 || isOnGrid(fen, steps)) return null
  const { below, above } = nearestOnGrid(fen, steps)
  return { below: below === null ? null : formatFen(below), above: formatFen(above) }
}

/** Seconds as staff read them: 30 秒, 5 分钟, 1 分 30 秒. */
export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} 秒`
  const minutes = Math.floor(seconds / 60)
  const rest = seconds % 60
  return rest === 0 ? `${minutes} 分钟` : `${minutes} 分 ${rest} 秒`
}

/** The largest CSV the import takes (the contract's 2,000,000 characters, roughly). */
export const CSV_MAX_BYTES = 2 * 1024 * 1024
