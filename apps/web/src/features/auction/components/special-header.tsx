import type { SpecialDetail } from '@numisma/contracts/catalog'
import { formatChinaDate } from '@numisma/contracts/dates'
import { useTranslation } from '../../../lib/i18n'
import { Countdown } from '../../../components/countdown'
import { SpecialStatusTag } from '../../../components/special-status-tag'
import styles from './special-header.module.css'

/** When the last lot of a special closes: lots end one after another (staggered close). */
export function lastLotEnd(special: Pick<SpecialDetail, 'endsAt' | 'lots'>): string {
  let last = special.endsAt
  for (const lot of special.lots) if (Date.parse(lot.endsAt) > Date.parse(last)) last = lot.endsAt
  return last
}

const DATE = 'YYYY-MM-DD HH:mm'

/** Cover, title, times in China time, countdown and the special's closing rules. */
export function SpecialHeader({ special }: { special: SpecialDetail }) {
  const { t } = useTranslation()
  const lastEnd = lastLotEnd(special)
  return (
    <header className={styles.header}>
      <div className={styles.hero}>
        <div className={styles.text}>
          <SpecialStatusTag status={special.status} />
          <h1 className={styles.title}>{special.title}</h1>
          {special.subtitle ? <p className={styles.subtitle}>{special.subtitle}</p> : null}
          <Countdown
            startsAt={special.startsAt}
            endsAt={lastEnd}
            closed={special.status === 'ended'}
            className={styles.countdown}
            timeClassName={styles.countdownTime}
          />
        </div>
        <img className={styles.cover} src={special.cover} alt="" />
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>{t('special.lots')}</dt>
          <dd>{special.lotCount}</dd>
        </div>
        <div>
          <dt>{t('special.bids')}</dt>
          <dd>{special.bidCount}</dd>
        </div>
        <div>
          <dt>{t('special.startsAt')}</dt>
          <dd>{formatChinaDate(special.startsAt, 'MM-DD HH:mm')}</dd>
        </div>
        <div>
          <dt>{t('special.endsAt')}</dt>
          <dd>{formatChinaDate(special.endsAt, 'MM-DD HH:mm')}</dd>
        </div>
      </dl>
      <div className={styles.notes}>
        <p>
          {t('special.schedule', {
            start: formatChinaDate(special.startsAt, DATE),
            end: formatChinaDate(special.endsAt, DATE),
            last: formatChinaDate(lastEnd, DATE),
          })}
        </p>
        <p className={styles.softClose}>
          {t('special.softClose', {
            window: Math.round(special.softCloseWindowSeconds / 60),
            extend: Math.round(special.softCloseExtendSeconds / 60),
            stagger: special.staggerSeconds,
          })}
        </p>
        {special.description ? <p className={styles.description}>{special.description}</p> : null}
      </div>
    </header>
  )
}
