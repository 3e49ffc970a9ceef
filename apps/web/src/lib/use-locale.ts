import type { Locale } from '@numisma/contracts/errors'
import { useTranslation } from './i18n'

/** The catalogue locale (grade names, countdown units) of the current UI language. */
export function useLocale(): Locale {
  const { i18n } = useTranslation()
  return i18n.language === 'en' ? 'en' : 'zh'
}
