import { COOKIE } from '@numisma/contracts/cookies'
import type { CookieJar } from './cookies'

/**
 * The sign-in app (spec §2 "a separate app") with the wanted URL to come back to. Callers start a
 * sign-in with lib/in-app/sign-in's `startSignIn`, which picks this page or an in-app way.
 */
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

export type GuardDecision = { kind: 'allow' } | { kind: 'sign-in'; wanted: string }

/**
 * Spec §2: on an auth route a missing user id cookie, or an agreement cookie other than '1',
 * sends the user to sign in with a redirect back. How they sign in depends on where the page runs
 * (passport page, native login, the messaging platform's OAuth): lib/in-app/sign-in.
 */
export function guardRoute(input: GuardInput): GuardDecision {
  if (!input.auth) return { kind: 'allow' }
  if (input.userId && input.agreement === '1') return { kind: 'allow' }
  return { kind: 'sign-in', wanted: input.wanted }
}

export function guardFromCookies(auth: boolean, wanted: string, jar: CookieJar): GuardDecision {
  return guardRoute({
    auth,
    wanted,
    userId: jar.get(COOKIE.userId),
    agreement: jar.get(COOKIE.agreement),
  })
}
