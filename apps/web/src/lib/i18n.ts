import { createContext, useContext, useSyncExternalStore } from 'react'
import { currentLanguage, DEFAULT_LANGUAGE, saveLanguage, type Language } from './language'
import { zhCN, type Messages } from './locales/zh-cn'

/**
 * The UI texts, by our own small translator rather than i18next and react-i18next: those were
 * about 17 KB gzipped of the home page's first load (issue 13), for what the app uses of them —
 * dot-path keys into nested texts, `{{name}}` values, arrays and objects as texts, zh-CN as every
 * missing key's fallback and a language switch at run time.
 */

/** Every key of the texts: a leaf (`home.search`), or an object or array of them (`rules.items`). */
export type MessageKey = KeysOf<Messages>

type KeysOf<T> = {
  [K in keyof T & string]: T[K] extends readonly unknown[]
    ? K
    : T[K] extends object
      ? K | `${K}.${KeysOf<T[K]>}`
      : K
}[keyof T & string]

/** What a key holds: `string` for a text, the array or object itself for the others. */
export type MessageAt<K extends string> = ValueAt<Messages, K>

type ValueAt<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? ValueAt<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never

/**
 * The values put into a text's `{{name}}`s. `returnObjects` is only for the reader: arrays and
 * objects are always returned (as i18next was set up to), their texts filled in alike.
 */
export type TOptions = Readonly<
  Record<string, string | number | boolean | null | undefined> & { returnObjects?: boolean }
>

/** A misspelt key is a compile error. */
export type TFunction = <K extends MessageKey>(key: K, options?: TOptions) => MessageAt<K>

const PLACEHOLDER = /\{\{(.+?)\}\}/g

function lookup(texts: unknown, key: string): unknown {
  let node = texts
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node ?? undefined
}

/**
 * Fills `{{name}}` with its value, in every text of an array or object too. As i18next did: a name
 * not among the values stays as written, null or undefined given for it is empty, and a value is
 * not itself searched for placeholders.
 */
function interpolate(value: unknown, values: TOptions): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (placeholder, name: string) => {
      const key = name.trim()
      if (!Object.hasOwn(values, key)) return placeholder
      const filled = values[key]
      return filled === null || filled === undefined ? '' : String(filled)
    })
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, values))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, interpolate(item, values)]),
    )
  }
  return value
}

/**
 * `t` over `texts`: the key's text there, else in `fallback` (zh-CN, whose texts are complete),
 * else the key itself.
 */
export function createTranslator(texts: Messages, fallback: Messages = zhCN): TFunction {
  const t = (key: string, options?: TOptions): unknown => {
    const found = lookup(texts, key) ?? (fallback === texts ? undefined : lookup(fallback, key))
    if (found === undefined) return key
    return options ? interpolate(found, options) : found
  }
  return t as TFunction
}

/** What `useTranslation` gives, in the shape react-i18next gave it. */
export interface Translation {
  t: TFunction
  i18n: { readonly language: Language }
}

export function createTranslation(language: Language, texts: Messages): Translation {
  return { t: createTranslator(texts), i18n: { language } }
}

/**
 * The browser's one current translation. Module state, read with useSyncExternalStore rather
 * than given by a provider at the root: antd-mobile renders its Dialog and Toast contents in roots
 * of their own, outside any provider of the app's.
 */
const made = new Map<Language, Translation>() // one per language: `t` keeps its identity
let current = createTranslation(DEFAULT_LANGUAGE, zhCN)
made.set(DEFAULT_LANGUAGE, current)
const listeners = new Set<() => void>()

/** The current translation, and a call whenever it changes (for tests and non-React code). */
export const currentTranslation = (): Translation => current

export function subscribeTranslation(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function show(language: Language, texts: Messages): void {
  let next = made.get(language)
  if (!next) made.set(language, (next = createTranslation(language, texts)))
  if (next === current) return
  current = next
  for (const listener of [...listeners]) listener()
}

/**
 * A translation given to a tree instead of the browser's: the server's first screen renders with
 * its own, so no request's language is module state.
 */
export const TranslationContext = createContext<Translation | null>(null)

/** `{ t, i18n }` of the current language; the component renders again when it changes. */
export function useTranslation(): Translation {
  const shown = useSyncExternalStore(subscribeTranslation, currentTranslation, currentTranslation)
  return useContext(TranslationContext) ?? shown
}

/**
 * The English texts are their own chunk: most readers never switch, and the first load stays
 * without them (issue 13). Chinese is the product language and every missing key's fallback.
 */
const loadEnglish = () => import('./locales/en').then((m) => m.en)

/** Chinese first, English once loaded when the `lang` cookie chose it. */
export async function initI18n(): Promise<void> {
  const language = currentLanguage()
  document.documentElement.lang = language
  if (language === 'en') show('en', await loadEnglish())
}

/** The latest choice: a switch whose texts arrive after a later one is not shown. */
let choice = 0

/**
 * Switches the UI language (every `useTranslation` re-renders once its texts are here) and
 * remembers it at once in the `lang` cookie, which start-up reads and every API call carries. A
 * failure (the English chunk unreachable offline) is only logged: the choice is already saved.
 */
export function changeLanguage(language: Language): void {
  saveLanguage(language)
  document.documentElement.lang = language
  const mine = ++choice
  const texts = language === 'en' ? loadEnglish() : Promise.resolve(zhCN)
  texts
    .then((loaded) => {
      if (mine === choice) show(language, loaded)
    })
    .catch((error: unknown) => {
      console.error('language switch failed', error)
    })
}
