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

export async function changeLanguage(language: Language): Promise<void> {
  saveLanguage(language)
  document.documentElement.lang = language
  await i18next.changeLanguage(language)
}
