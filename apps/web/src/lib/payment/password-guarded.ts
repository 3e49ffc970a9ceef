import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { PAY_PASSWORD_SETTINGS_KEY } from '../account/pay-password'
import { neverSent } from '../api-client'
import { inBackground } from '../background'

/**
 * The `onSettled` of a call guarded by the payment password (paying, the delivery fees): what it
 * changed (`keys`) is fetched again. On success the screen leaves, so they refetch behind it; a
 * refusal means the screen judged stale orders or balance, or a wrong password counted towards
 * the lock (the settings say until when), so they are fetched again before the button frees up —
 * unless the call never left the phone.
 */
export function refreshAfterGuardedCall(queryClient: QueryClient, keys: readonly QueryKey[]) {
  return (result: unknown, error: unknown): Promise<unknown> | undefined => {
    if (neverSent(error)) return undefined
    const refresh = () =>
      Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
    if (result === undefined) {
      return Promise.all([
        refresh(),
        queryClient.invalidateQueries({ queryKey: PAY_PASSWORD_SETTINGS_KEY }),
      ])
    }
    // Not awaited: the screen is left for the success page or the platform's cashier.
    inBackground(refresh())
    return undefined
  }
}
