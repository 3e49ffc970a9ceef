import type { LotCard as LotCardData } from '@numisma/contracts/catalog'
import type { ReactNode } from 'react'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { Link } from 'react-router'
import { isLotClosed, shownPrice } from '../lib/lot-outcome'
import { Countdown } from './countdown'
import { GradeBadge } from './grade-badge'
import { Price } from './price'
import styles from './lot-card.module.css'
import { ItemImage } from './item-image'

/**
 * A lot in a list: photo, title, grade, current (or start) price, bids and its countdown; `extra`
 * adds lines of the caller's own (my highest bid, my proxy maximum) under them.
 */
export function LotCard({
  lot,
  extra,
  className,
}: {
  lot: LotCardData
  extra?: ReactNode
  className?: string
}) {
  const { t } = useTranslation()
  const closed = isLotClosed(lot)
  const price = shownPrice(lot)
  return (
    <Link
      className={className ? `${styles.card} ${className}` : styles.card}
      to={`/productDetail?id=${lot.id}`}
      data-testid="lot-card"
      data-lot-id={lot.id}
    >
      <div className={styles.media}>
        <ItemImage src={lot.image} alt={lot.title} />
        <span className={styles.no}>{t('lot.lotNo', { no: lot.lotNo })}</span>
      </div>
      <div className={styles.info}>
        <h3 className={styles.title}>{lot.title}</h3>
        <GradeBadge
          gradeCode={lot.gradeCode}
          gradingService={lot.gradingService}
          className={styles.grade}
        />
        <div className={styles.price}>
          <span className={styles.priceLabel}>{t(price.labelKey)}</span>
          <Price fen={price.fen} size="md" muted={closed && lot.status !== 'sold'} />
        </div>
        <div className={styles.meta}>
          <span>{t('lot.bidCount', { count: lot.bidCount })}</span>
          <Countdown
            startsAt={lot.startsAt}
            endsAt={lot.endsAt}
            closed={closed}
            endedText={lot.status === 'sold' ? t('lot.status.sold') : t('lot.status.ended')}
          />
        </div>
        {extra ? <div className={styles.extra}>{extra}</div> : null}
      </div>
    </Link>
  )
}

export function LotCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true">
      <Skeleton className={styles.media} animated />
      <div className={styles.info}>
        <Skeleton.Paragraph lineCount={3} animated />
      </div>
    </div>
  )
}

/** Lot cards one under another (home, search results, a special's lots). */
export function LotList({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className={styles.list} data-testid={testId}>
      {children}
    </div>
  )
}

/** A list's placeholder while its first page loads. */
export function LotListSkeleton({ count }: { count: number }) {
  return (
    <LotList>
      {Array.from({ length: count }, (_, i) => (
        <LotCardSkeleton key={i} />
      ))}
    </LotList>
  )
}
