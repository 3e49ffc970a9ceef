import type { SpecialSummary } from '@numisma/contracts/catalog'
import type { ReactNode } from 'react'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { Link } from 'react-router'
import { Countdown } from './countdown'
import { SpecialStatusTag } from './special-status-tag'
import styles from './special-card.module.css'

/** A special in the home list: cover, title, lot and bid counts, status and countdown. */
export function SpecialCard({ special }: { special: SpecialSummary }) {
  const { t } = useTranslation()
  return (
    <Link
      className={styles.card}
      to={`/specialDetail?id=${special.id}`}
      data-special-id={special.id}
      data-lot-count={special.lotCount}
    >
      <div className={styles.cover}>
        <img src={special.cover} alt={special.title} loading="lazy" decoding="async" />
        <SpecialStatusTag status={special.status} className={styles.status} />
      </div>
      <div className={styles.info}>
        <h3 className={styles.title}>{special.title}</h3>
        {special.subtitle ? <p className={styles.subtitle}>{special.subtitle}</p> : null}
        <div className={styles.meta}>
          {t('special.lotCount', { count: special.lotCount })}
          <span className={styles.dot}>·</span>
          {t('special.bidCount', { count: special.bidCount })}
        </div>
        <Countdown
          startsAt={special.startsAt}
          endsAt={special.endsAt}
          closed={special.status === 'ended'}
          // Lots close one after another: past the first close a live special is still closing.
          endedText={special.status === 'live' ? t('special.closing') : undefined}
          className={styles.countdown}
        />
      </div>
    </Link>
  )
}

export function SpecialCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true">
      <Skeleton animated className={styles.cover} />
      <div className={styles.info}>
        <Skeleton.Paragraph lineCount={2} animated />
      </div>
    </div>
  )
}

/** The home page's column of special cards. */
export function SpecialList({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className={styles.list} data-testid={testId}>
      {children}
    </div>
  )
}
