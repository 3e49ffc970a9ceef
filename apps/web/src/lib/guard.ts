import { COOKIE } from '@numisma/contracts/cookies'
import type { CookieJar } from './cookies'

/** The sign-in app (spec §2 "a separate app") with the wanted URL to come back to. */
export function signInUrl(wanted: string): string {
  return `/passport?redirect=${encodeURIComponent(wanted)}`
}

export interface GuardInput {
  /** Whether the route needs sign-in (route meta). */
  auth: boolean
  /** The wanted URL: pathname + search (+ hash). */
  wanted: string
  userId: string | undefined
  agreement: string | undefined
}

export type GuardDecision = { kind: 'allow' } | { kind: 'sign-in'; url: string }

/**
 * Spec §2: on an auth route a missing user id cookie, or an agreement cookie other than '1',
 * sends the user to sign in with a redirect back. Native-app and messaging-app variants plug in
 * by mapping the 'sign-in' decision to their own flow.
 */
export function guardRoute(input: GuardInput): GuardDecision {
  if (!input.auth) return { kind: 'allow' }
  if (input.userId && input.agreement === '1') return { kind: 'allow' }
  return { kind: 'sign-in', url: signInUrl(input.wanted) }
}

export function guardFromCookies(auth: boolean, wanted: string, jar: CookieJar): GuardDecision {
  return guardRoute({
    auth,
    wanted,
    userId: jar.get(COOKIE.userId),
    agreement: jar.get(COOKIE.agreement),
  })
}
