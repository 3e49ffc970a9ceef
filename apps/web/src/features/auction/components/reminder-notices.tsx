import { useEffect, useState } from 'react'
import type { PushReminder } from '@numisma/contracts/push'
import { formatChinaDate } from '@numisma/contracts/dates'
import { NoticeBar } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { pushManager } from '../../../lib/push'
import { addReminder, dismissReminder } from './reminder-list'
import styles from './reminder-notices.module.css'

/** Long enough to read and tap on a phone; the reminder also stays in the watchlist's countdown. */
export const REMINDER_SHOWN_MS = 15_000

/**
 * Ending-soon reminders (DESIGN §4) for a watched lot: a notice at the top of any page with a link
 * to the lot. Not a toast: a toast cannot be tapped, and the point is to get to the lot in time.
 */
export function ReminderNotices() {
  const { t } = useTranslation()
  const [shown, setShown] = useState<PushReminder[]>([])

  useEffect(
    () =>
      pushManager().onReminder((message) => {
        setShown((list) => addReminder(list, message))
        setTimeout(
          () => setShown((list) => dismissReminder(list, message.lotId)),
          REMINDER_SHOWN_MS,
        )
      }),
    [],
  )

  if (shown.length === 0) return null
  return (
    <div className={styles.notices} data-testid="reminders">
      {shown.map((reminder) => {
        const close = () => setShown((list) => dismissReminder(list, reminder.lotId))
        return (
          <div key={reminder.lotId} role="status" data-lot-id={reminder.lotId}>
            <NoticeBar
              className={styles.notice}
              color="alert"
              wrap
              closeable
              onClose={close}
              content={t('bid.reminder', {
                title: reminder.title,
                time: formatChinaDate(reminder.endsAt, 'HH:mm'),
              })}
              extra={
                <Link
                  className={styles.link}
                  to={`/productDetail?id=${reminder.lotId}`}
                  data-testid="reminder-link"
                  onClick={close}
                >
                  {t('bid.reminderOpen')}
                </Link>
              }
            />
          </div>
        )
      })}
    </div>
  )
}
