import type { PickupDay, PickupSlot } from '@numisma/contracts/delivery'
import { Selector } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { daysWithPlaces } from './delivery-choice'
import styles from './slot-picker.module.css'

const WEEKDAY_ZH = ['周日', '周一', '周二', '周三', '周四', '周五', '周六']
const WEEKDAY_EN = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** `01-03 周五`: a counter day as a button says it (dates are China calendar days). */
function dayLabel(date: string, language: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay()
  return `${date.slice(5)} ${(language === 'en' ? WEEKDAY_EN : WEEKDAY_ZH)[weekday]}`
}

/**
 * The counter's appointment: a day among those with a place left, then one of its slots with the
 * places left (a full slot is shown, disabled). Used for self-pickup and counter cash alike.
 */
export function SlotPicker({
  days,
  date,
  slot,
  onChange,
}: {
  days: readonly PickupDay[]
  date: string | undefined
  slot: PickupSlot | undefined
  onChange: (choice: { date: string; slot: PickupSlot | undefined }) => void
}) {
  const { t, i18n } = useTranslation()
  const open = daysWithPlaces(days)
  const day = open.find((d) => d.date === date)
  if (open.length === 0) {
    return <p className={styles.none}>{t('delivery.noSlots')}</p>
  }
  return (
    <div className={styles.picker}>
      <p className={styles.label}>{t('delivery.date')}</p>
      <Selector
        className={styles.selector}
        columns={3}
        showCheckMark={false}
        options={open.map((d) => ({ label: dayLabel(d.date, i18n.language), value: d.date }))}
        value={date ? [date] : []}
        onChange={(values) => {
          const next = values[0]
          if (next === undefined) return
          const nextDay = open.find((d) => d.date === next)
          const keep = nextDay?.slots.find((s) => s.slot === slot && s.remaining > 0)
          onChange({
            date: next,
            slot: keep?.slot ?? nextDay?.slots.find((s) => s.remaining > 0)?.slot,
          })
        }}
        data-testid="slot-dates"
      />
      <p className={styles.label}>{t('delivery.slot')}</p>
      <Selector
        className={styles.selector}
        columns={1}
        showCheckMark={false}
        options={(day?.slots ?? []).map((s) => ({
          label: s.slot,
          value: s.slot,
          description:
            s.remaining > 0 ? t('delivery.placesLeft', { count: s.remaining }) : t('delivery.full'),
          disabled: s.remaining <= 0,
        }))}
        value={slot ? [slot] : []}
        onChange={(values) => {
          const next = values[0]
          if (next !== undefined && date) onChange({ date, slot: next })
        }}
        data-testid="slot-slots"
      />
    </div>
  )
}
