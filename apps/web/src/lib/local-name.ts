import type { Banner } from '@numisma/contracts/catalog'
import type { Locale } from '@numisma/contracts/errors'

/** A catalogue entry named in both languages: a category or a mall category node. */
export interface LocalNames {
  name: string
  nameEn?: string | undefined
}

/** The entry's name in the UI locale; the Chinese name where no English one was entered. */
export function localName(entry: LocalNames, locale: Locale): string {
  const english = entry.nameEn?.trim()
  return locale === 'en' && english ? english : entry.name
}

/** A banner's title in the UI locale, by the same rule as names. */
export function localTitle(banner: Pick<Banner, 'title' | 'titleEn'>, locale: Locale): string {
  return localName({ name: banner.title, nameEn: banner.titleEn }, locale)
}
