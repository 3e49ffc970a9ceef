import { NoticeBar } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import type { LotNotice } from './reminder-list'
import styles from './reminder-notices.module.css'

/** Long enough to read and tap on a phone. */
export const NOTICE_SHOWN_MS = 15_000

/**
 * Lot notices at the top of any page, each with a link to its lot: ending-soon reminders for a
 * watched lot (DESIGN §4) and outbid notices. Not toasts: a toast cannot be tapped, and the point
 * is to get to the lot in time.
 */
export function LotNotices({
  notices,
  onDismiss,
}: {
  notices: readonly LotNotice[]
  onDismiss: (notice: LotNotice) => void
}) {
  const { t } = useTranslation()
  if (notices.length === 0) return null
  return (
    <div className={styles.notices} data-testid="reminders">
      {notices.map((notice) => {
        const close = () => onDismiss(notice)
        return (
          <div
            key={`${notice.kind}:${notice.lotId}`}
            role="status"
            data-lot-id={notice.lotId}
            data-kind={notice.kind}
          >
            <NoticeBar
              className={styles.notice}
              color="alert"
              wrap
              closeable
              onClose={close}
              content={notice.text}
              extra={
                <Link
                  className={styles.link}
                  to={`/productDetail?id=${notice.lotId}`}
                  data-testid="reminder-link"
                  onClick={close}
                >
                  {notice.kind === 'outbid' ? t('bid.outbidOpen') : t('bid.reminderOpen')}
                </Link>
              }
            />
          </div>
        )
      })}
    </div>
  )
}
