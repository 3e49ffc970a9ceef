import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { zhCN } from './locales/zh-cn'
import { currentLanguage, DEFAULT_LANGUAGE, saveLanguage, type Language } from './language'

/**
 * The English texts are their own chunk: most readers never switch, and the first load stays
 * without them (issue 13). Chinese is the product language and every missing key's fallback.
 */
const loadEnglish = () => import('./locales/en').then((m) => m.en)

/** i18next with zh-CN first and en second, chosen by the `lang` cookie. */
export async function initI18n(): Promise<void> {
  const language = currentLanguage()
  document.documentElement.lang = language
  const resources: Record<string, { translation: object }> = { 'zh-CN': { translation: zhCN } }
  if (language === 'en') resources.en = { translation: await loadEnglish() }
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['zh-CN', 'en'],
    resources,
    interpolation: { escapeValue: false },
    returnObjects: true,
  })
}

/**
 * Switches the UI language (every `useTranslation` re-renders once its texts are here) and
 * remembers it at once in the `lang` cookie, which start-up reads and every API call carries. A
 * failure (the English chunk unreachable offline) is only logged: the choice is already saved.
 */
export function changeLanguage(language: Language): void {
  saveLanguage(language)
  document.documentElement.lang = language
  const ready =
    language === 'en' && !i18next.hasResourceBundle('en', 'translation')
      ? loadEnglish().then((texts) => i18next.addResourceBundle('en', 'translation', texts))
      : Promise.resolve()
  ready
    .then(() => i18next.changeLanguage(language))
    .catch((error: unknown) => {
      console.error('language switch failed', error)
    })
}
