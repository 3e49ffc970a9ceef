import { PAY_MAX_ORDERS } from '@numisma/contracts/payment'
import { positiveId } from '../query-param'

/**
 * `?orderIds=41,42`: the orders a remittance is for, carried from /account/pay through the bank
 * screens. Anything malformed, repeated or beyond the payment limit means no orders at all (a
 * remittance onto the balance), never a guess at which ones were meant.
 */
export function parseOrderIds(value: string | null | undefined): number[] {
  if (!value) return []
  const parts = value.split(',')
  if (parts.length > PAY_MAX_ORDERS) return []
  const ids: number[] = []
  for (const part of parts) {
    const id = positiveId(part.trim())
    if (id === undefined || ids.includes(id)) return []
    ids.push(id)
  }
  return ids
}

/** The query string a bank screen hands on: `orderIds=41,42` (empty without orders). */
export function orderIdsParam(ids: readonly number[]): string {
  return ids.length > 0 ? `orderIds=${ids.join(',')}` : ''
}
