import {
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  AccountSettingsSchema,
  SetPayPasswordResultSchema,
  type AccountSettings,
  type SetPayPassword,
} from '@numisma/contracts/account'
import { SmsResponseSchema } from '@numisma/contracts/passport'
import { ApiError, neverSent, request } from '../api-client'
import { USER_STATISTICS_KEY } from '../orders/query-keys'

/** Whether a payment password is set and until when payment is locked (DESIGN §3). */
export const PAY_PASSWORD_SETTINGS_KEY = ['account', 'payPasswordSettings'] as const

/** GET /user/@accountSeting (the spec's spelling). */
export function getPayPasswordSettings(): Promise<AccountSettings> {
  return request({
    path: '/user/@accountSeting',
    defaultError: 'GET_INFO_FAILED',
    schema: AccountSettingsSchema,
  })
}

export function payPasswordSettingsQueryOptions() {
  return queryOptions({ queryKey: PAY_PASSWORD_SETTINGS_KEY, queryFn: getPayPasswordSettings })
}

export function usePayPasswordSettings() {
  return useQuery(payPasswordSettingsQueryOptions())
}

/**
 * POST /user/@setPayPass: a first password, or a new one with the old one or an SMS code. Silent:
 * the page says each refusal where it belongs (see `setPayPasswordRefusal`).
 */
export function setPayPassword(body: SetPayPassword): Promise<{ payPasswordSet: true }> {
  return request({
    method: 'POST',
    path: '/user/@setPayPass',
    body,
    defaultError: 'SUBMIT_FAILED',
    schema: SetPayPasswordResultSchema,
    silent: true,
  })
}

/**
 * Setting the password with the cache it owns: the settings and the user centre (which says
 * whether one is set). A refusal refreshes them too, as a wrong old password may have locked
 * payment; a call that never left changes nothing.
 */
export function setPayPasswordMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: setPayPassword,
    onSettled: (_result, error) => {
      if (neverSent(error)) return undefined
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: PAY_PASSWORD_SETTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])
    },
  })
}

export function useSetPayPassword() {
  return useMutation(setPayPasswordMutationOptions(useQueryClient()))
}

/**
 * POST /passport/sms to the user's own mobile: the code that proves them when the old password is
 * forgotten. `devCode` comes back outside production only (there is no real SMS there).
 */
export function sendPayPasswordCode(mobile: string): Promise<{ sent: true; devCode?: string }> {
  return request({
    method: 'POST',
    path: '/passport/sms',
    body: { mobile },
    defaultError: 'REQUEST_FAILED',
    schema: SmsResponseSchema.shape.data,
  })
}

export function useSendPayPasswordCode() {
  return useMutation({ mutationFn: sendPayPasswordCode })
}

/** Where a refused POST /user/@setPayPass leads on the page. */
export type SetPayPasswordRefusal =
  /** The old password was wrong (counted): ask for it again. */
  | { kind: 'old-wrong'; message: string; triesLeft?: number }
  /** Payment is locked: the old password cannot be tried; an SMS code still can. */
  | { kind: 'locked'; message: string; until?: string }
  /** The SMS code was wrong, expired or used: ask for it (or a new one) again. */
  | { kind: 'code-wrong'; message: string }
  /** A password was set meanwhile (another device): this is now a change, needing proof. */
  | { kind: 'proof-required'; message: string }
  | { kind: 'toast'; message: string }
  /** Already told (offline alert) or nothing to tell (aborted). */
  | { kind: 'none' }

export function setPayPasswordRefusal(error: unknown, fallback: string): SetPayPasswordRefusal {
  if (!(error instanceof ApiError)) return { kind: 'toast', message: fallback }
  if (neverSent(error)) return { kind: 'none' }
  const message = error.message || fallback
  switch (error.code) {
    case 'PAY_PASSWORD_WRONG': {
      const triesLeft = error.details?.triesLeft
      return typeof triesLeft === 'number' && Number.isSafeInteger(triesLeft) && triesLeft >= 0
        ? { kind: 'old-wrong', message, triesLeft }
        : { kind: 'old-wrong', message }
    }
    case 'PAY_LOCKED': {
      const until = error.details?.until
      return typeof until === 'string' && !Number.isNaN(Date.parse(until))
        ? { kind: 'locked', message, until }
        : { kind: 'locked', message }
    }
    case 'SMS_CODE_INVALID':
      return { kind: 'code-wrong', message }
    case 'PAY_PASSWORD_PROOF_REQUIRED':
      return { kind: 'proof-required', message }
    default:
      return { kind: 'toast', message }
  }
}
