import { useState } from 'react'
import { ActionSheet, List } from 'antd-mobile'
import { GlobalOutline } from 'antd-mobile-icons'
import { changeLanguage, useTranslation } from '../../../lib/i18n'
import { LANGUAGE_NAMES, LANGUAGES, parseLanguage, type Language } from '../../../lib/language'

/**
 * The user centre's language row: shows the current language and opens a sheet of the others.
 * The choice re-renders the app at once and is kept in the `lang` cookie for the next visit.
 */
export function LanguageCell() {
  const { t, i18n } = useTranslation()
  const [open, setOpen] = useState(false)
  const current = parseLanguage(i18n.language)

  return (
    <>
      <List.Item
        prefix={<GlobalOutline />}
        extra={LANGUAGE_NAMES[current]}
        onClick={() => setOpen(true)}
        data-testid="language-cell"
      >
        {t('ucenter.language')}
      </List.Item>
      <ActionSheet
        visible={open}
        extra={t('ucenter.chooseLanguage')}
        cancelText={t('common.cancel')}
        actions={LANGUAGES.map((language) => ({
          key: language,
          text: LANGUAGE_NAMES[language],
          bold: language === current,
        }))}
        onAction={(action) => {
          setOpen(false)
          const chosen = LANGUAGES.find((l): l is Language => l === action.key)
          if (chosen && chosen !== current) changeLanguage(chosen)
        }}
        onClose={() => setOpen(false)}
      />
    </>
  )
}
