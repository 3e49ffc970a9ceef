import type { MallItemCard } from '@numisma/contracts/catalog'
import type { ReactNode } from 'react'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { Link } from 'react-router'
import { GradeBadge } from './grade-badge'
import { Price } from './price'
import styles from './mall-card.module.css'
import { ItemImage } from './item-image'

/** A mall item in a two-column grid: photo, title, grade, price and how many are left. */
export function MallCard({ item }: { item: MallItemCard }) {
  const { t } = useTranslation()
  const soldOut = item.stock <= 0
  return (
    <Link
      className={styles.card}
      to={`/productDetail?productNo=${encodeURIComponent(item.productNo)}`}
      data-product-no={item.productNo}
    >
      <div className={styles.media}>
        <ItemImage src={item.image} alt={item.title} />
        {soldOut ? <span className={styles.soldOut}>{t('mall.soldOut')}</span> : null}
      </div>
      <div className={styles.info}>
        <h3 className={styles.title}>{item.title}</h3>
        <GradeBadge
          gradeCode={item.gradeCode}
          gradingService={item.gradingService}
          className={styles.grade}
        />
        <div className={styles.bottom}>
          <Price fen={item.price} size="sm" muted={soldOut} />
          <span className={styles.sold}>{t('mall.sold', { count: item.sold })}</span>
        </div>
      </div>
    </Link>
  )
}

export function MallCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true">
      <Skeleton className={styles.media} animated />
      <div className={styles.info}>
        <Skeleton.Paragraph lineCount={2} animated />
      </div>
    </div>
  )
}

/** Mall cards two to a row. */
export function MallGrid({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className={styles.grid} data-testid={testId}>
      {children}
    </div>
  )
}

/** The mall grid's placeholder while its first page loads. */
export function MallGridSkeleton({ count }: { count: number }) {
  return (
    <div className={styles.grid}>
      {Array.from({ length: count }, (_, i) => (
        <MallCardSkeleton key={i} />
      ))}
    </div>
  )
}
