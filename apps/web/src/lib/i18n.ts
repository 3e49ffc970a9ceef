import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { en } from './locales/en'
import { zhCN } from './locales/zh-cn'
import { currentLanguage, DEFAULT_LANGUAGE, saveLanguage, type Language } from './language'

/** i18next with zh-CN first and en second, chosen by the `lang` cookie. */
export async function initI18n(): Promise<void> {
  const language = currentLanguage()
  document.documentElement.lang = language
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['zh-CN', 'en'],
    resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
    interpolation: { escapeValue: false },
    returnObjects: true,
  })
}

/**
 * Switches the UI language now (every `useTranslation` re-renders) and remembers it in the `lang`
 * cookie, which start-up reads and every API call carries. The texts are bundled, so the switch
 * cannot wait on a download; a failure is only logged, the choice is already saved.
 */
export function changeLanguage(language: Language): void {
  saveLanguage(language)
  document.documentElement.lang = language
  i18next.changeLanguage(language).catch((error: unknown) => {
    console.error('language switch failed', error)
  })
}
