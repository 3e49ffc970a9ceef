import { ApiError } from '../api-client'

/** What the payment screen does with a refused or failed doPay. */
export type PayErrorAction =
  /** Wrong payment password: said in the password popup, which clears and stays open. */
  | { kind: 'password-wrong'; message: string; triesLeft?: number }
  /** Too many wrong tries: payment is locked until `until` (ISO time, when the server says). */
  | { kind: 'locked'; message: string; until?: string }
  /** No payment password yet: off to /account/setPayPwd and back. */
  | { kind: 'password-not-set'; message: string }
  /** The balance does not cover the total: offer recharging or moving money to the balance. */
  | { kind: 'balance-low'; message: string }
  /** The orders (or the coupon) changed meanwhile: say why and show them again. */
  | { kind: 'stale'; message: string }
  | { kind: 'toast'; message: string }
  /** Already told (offline alert) or nothing to tell (aborted). */
  | { kind: 'none' }

const STALE = new Set(['ORDER_NOT_PAYABLE', 'COUPON_INVALID', 'NOT_FOUND', 'VALIDATION_FAILED'])

/**
 * Maps a failed doPay to the UI; `fallback` is the spec §8 default ('balance payment failed' for
 * balance, 'payment failed' otherwise), used when the server gave no message.
 */
export function payErrorAction(error: unknown, fallback: string): PayErrorAction {
  if (!(error instanceof ApiError)) return { kind: 'toast', message: fallback }
  if (error.code === 'OFFLINE' || error.code === 'ABORTED') return { kind: 'none' }
  const message = error.message || fallback
  switch (error.code) {
    case 'PAY_PASSWORD_WRONG': {
      const triesLeft = count(error.details?.triesLeft)
      return { kind: 'password-wrong', message, ...(triesLeft === undefined ? {} : { triesLeft }) }
    }
    case 'PAY_LOCKED': {
      const until = isoTime(error.details?.until)
      return { kind: 'locked', message, ...(until === undefined ? {} : { until }) }
    }
    case 'PAY_PASSWORD_NOT_SET':
      return { kind: 'password-not-set', message }
    case 'BALANCE_LOW':
      return { kind: 'balance-low', message }
  }
  if (STALE.has(error.code)) return { kind: 'stale', message }
  return { kind: 'toast', message }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

function isoTime(value: unknown): string | undefined {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined
}
