import { COOKIE } from '@numisma/contracts/cookies'
import type { Locale } from '@numisma/contracts/errors'
import { browserCookies, type CookieJar } from './cookies'

/** UI languages: Chinese first (the product language), English second. */
export const LANGUAGES = ['zh-CN', 'en'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'zh-CN'

/** Each language in its own script, as a language menu shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '简体中文', en: 'English' }

/** A language choice outlives a login (30 days): it is the reader's, not the session's. */
const LANGUAGE_COOKIE_DAYS = 365

export function parseLanguage(value: string | undefined): Language {
  return value?.toLowerCase().startsWith('en') ? 'en' : DEFAULT_LANGUAGE
}

/**
 * The language chosen by the `lang` cookie, zh-CN by default. A cookie rather than localStorage:
 * it travels with every request, so the server answers errors in the same language.
 */
export function currentLanguage(jar: CookieJar = browserCookies): Language {
  return parseLanguage(jar.get(COOKIE.locale))
}

export function saveLanguage(language: Language, jar: CookieJar = browserCookies): void {
  jar.set(COOKIE.locale, language, LANGUAGE_COOKIE_DAYS)
}

/** The catalogue locale (contracts/errors) of a UI language. */
export function toLocale(language: Language): Locale {
  return language === 'en' ? 'en' : 'zh'
}
