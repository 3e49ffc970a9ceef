import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'

/**
 * Pure helpers of the money pages (tested in node; the pages import antd). Amounts travel as fen
 * and are typed in yuan with two decimals (contracts/money `yuanToFen` back).
 */
export function fenToYuan(fen: number): number {
  return fen / 100
}

/** `¥1,234.50`-style text of the console: yuan with two decimals. */
export function yuanText(fen: number): string {
  return formatFen(fen, 2)
}

/** An amount with its currency sign, the minus before it: `¥1,234.50`, `-¥3.50`. */
export function moneyText(fen: number): string {
  return `${fen < 0 ? '-' : ''}¥${formatFen(Math.abs(fen), 2)}`
}

/** A signed movement: `+12.00` / `-3.50`. */
export function signedYuan(fen: number): string {
  return `${fen > 0 ? '+' : ''}${formatFen(fen, 2)}`
}

/** A bank account number in groups of four, as statements print it: `0200 2489 0920 0135 678`. */
export function groupedAccountNo(accountNo: string): string {
  return accountNo.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ')
}

/** An instant in China time, `2026-11-26 15:04`. */
export function chinaTime(iso: string | null | undefined): string {
  return formatChinaDate(iso ?? null, 'YYYY-MM-DD HH:mm')
}

/** Today's China calendar day, `YYYY-MM-DD`. */
export function chinaToday(now: number = Date.now()): string {
  return formatChinaDate(now, 'YYYY-MM-DD')
}

/** A label from a table of names, the raw value when the table has none. */
export function nameOf(names: Readonly<Record<string, string>>, value: string): string {
  return names[value] ?? value
}

/** A fresh Idempotency-Key for one money action (a retry of that action reuses it). */
export function newIdempotencyKey(): string {
  return `console-${crypto.randomUUID()}`
}

/** The server's refusal in its words (BALANCE_LOW, NOT_PENDING …), else the error's text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
