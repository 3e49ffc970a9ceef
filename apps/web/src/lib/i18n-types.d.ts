import 'i18next'
import type { Messages } from './locales/zh-cn'

// Typed keys for t(): a misspelt key is a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: Messages }
    returnObjects: true
  }
}
