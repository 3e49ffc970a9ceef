import { NATIVE_UA_PATTERN } from '@numisma/contracts/in-app'

/**
 * Where the page runs (spec §1, §2, §9): our native app (its `NumismaApp/<version>` marker), the
 * messaging app's browser (`MicroMessenger`), the microblog app's browser (`Weibo`), or any other
 * browser. Decides how sign-in, sharing and pay work; nothing else should sniff the user agent.
 */
export type InAppEnvironment = 'native' | 'messaging' | 'microblog' | 'browser'

export function inAppEnvironmentOf(userAgent: string): InAppEnvironment {
  if (NATIVE_UA_PATTERN.test(userAgent)) return 'native'
  if (/MicroMessenger/i.test(userAgent)) return 'messaging'
  if (/\bWeibo\b/i.test(userAgent)) return 'microblog'
  return 'browser'
}

export function currentInAppEnvironment(): InAppEnvironment {
  return inAppEnvironmentOf(navigator.userAgent)
}
