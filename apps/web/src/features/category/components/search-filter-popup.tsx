import { useState } from 'react'
import { GRADING_SERVICES } from '@numisma/contracts/catalog'
import { gradeName, NAMED_GRADE_CODES } from '@numisma/contracts/grades'
import { Button, Input, Popup, Selector } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useLocale } from '../../../lib/use-locale'
import { SEARCH_STATUSES, type SearchState } from './search-state'
import styles from './search-filter-popup.module.css'

/** One code per grade name (several codes share a name in spec §3), in table order. */
function gradeOptions(locale: 'zh' | 'en'): { label: string; value: string }[] {
  const seen = new Set<string>()
  const options: { label: string; value: string }[] = []
  for (const code of [...NAMED_GRADE_CODES].sort((a, b) => a - b)) {
    const name = gradeName(code, locale)
    if (seen.has(name)) continue
    seen.add(name)
    options.push({ label: name, value: String(code) })
  }
  return options
}

export interface SearchFilterPopupProps {
  visible: boolean
  state: SearchState
  onClose: () => void
  onApply: (next: SearchState) => void
}

/** Status, grading service, grade and a price range in yuan; applied together. */
export function SearchFilterPopup({ visible, state, onClose, onApply }: SearchFilterPopupProps) {
  const { t } = useTranslation()
  const locale = useLocale()
  const [draft, setDraft] = useState(state)
  const single = (values: string[]): string | undefined => values[0]
  // Closing without applying forgets the draft.
  const close = (): void => {
    setDraft(state)
    onClose()
  }
  const yuanInput = (text: string): string | undefined =>
    /^\d{0,9}(?:\.\d{0,2})?$/.test(text.trim()) ? text.trim() : undefined

  return (
    <Popup
      visible={visible}
      onMaskClick={close}
      onClose={close}
      position="right"
      bodyClassName={styles.popup}
    >
      <div className={styles.body}>
        {draft.type === 'auction' ? (
          <fieldset className={styles.group}>
            <legend>{t('search.status')}</legend>
            <Selector
              columns={3}
              options={SEARCH_STATUSES.map((s) => ({ label: t(`search.statuses.${s}`), value: s }))}
              value={[draft.status]}
              onChange={(v) => {
                const status = SEARCH_STATUSES.find((s) => s === single(v))
                if (status) setDraft({ ...draft, status })
              }}
            />
          </fieldset>
        ) : null}
        <fieldset className={styles.group}>
          <legend>{t('search.gradingService')}</legend>
          <Selector
            columns={3}
            options={GRADING_SERVICES.map((s) => ({ label: s, value: s }))}
            value={draft.gradingService ? [draft.gradingService] : []}
            onChange={(v) =>
              setDraft({
                ...draft,
                gradingService: GRADING_SERVICES.find((s) => s === single(v)),
              })
            }
          />
        </fieldset>
        <fieldset className={styles.group}>
          <legend>{t('search.grade')}</legend>
          <Selector
            columns={3}
            options={gradeOptions(locale)}
            value={draft.grade === undefined ? [] : [String(draft.grade)]}
            onChange={(v) => {
              const code = single(v)
              setDraft({ ...draft, grade: code === undefined ? undefined : Number(code) })
            }}
          />
        </fieldset>
        <fieldset className={styles.group}>
          <legend>{t('search.price')}</legend>
          <div className={styles.price}>
            <Input
              type="text"
              inputMode="decimal"
              placeholder={t('search.minPrice')}
              value={draft.minYuan}
              onChange={(text) => {
                const minYuan = yuanInput(text)
                if (minYuan !== undefined) setDraft({ ...draft, minYuan })
              }}
              aria-label={t('search.minPrice')}
            />
            <span className={styles.dash}>—</span>
            <Input
              type="text"
              inputMode="decimal"
              placeholder={t('search.maxPrice')}
              value={draft.maxYuan}
              onChange={(text) => {
                const maxYuan = yuanInput(text)
                if (maxYuan !== undefined) setDraft({ ...draft, maxYuan })
              }}
              aria-label={t('search.maxPrice')}
            />
          </div>
        </fieldset>
      </div>
      <div className={styles.actions}>
        <Button
          block
          onClick={() =>
            setDraft({
              ...draft,
              status: 'live',
              gradingService: undefined,
              grade: undefined,
              minYuan: '',
              maxYuan: '',
            })
          }
        >
          {t('search.reset')}
        </Button>
        <Button block color="primary" onClick={() => onApply(draft)}>
          {t('common.confirm')}
        </Button>
      </div>
    </Popup>
  )
}
