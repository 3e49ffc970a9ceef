import type { MallItemCard } from '@numisma/contracts/catalog'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { GradeBadge } from './grade-badge'
import { Price } from './price'

/** A mall item in a two-column grid: photo, title, grade, price and how many are left. */
export function MallCard({ item }: { item: MallItemCard }) {
  const { t } = useTranslation()
  const soldOut = item.stock <= 0
  return (
    <Link
      className="mall-card"
      to={`/productDetail?productNo=${encodeURIComponent(item.productNo)}`}
      data-product-no={item.productNo}
    >
      <div className="mall-card-media">
        <img src={item.image} alt={item.title} loading="lazy" decoding="async" />
        {soldOut ? <span className="mall-card-soldout">{t('mall.soldOut')}</span> : null}
      </div>
      <div className="mall-card-info">
        <h3 className="mall-card-title">{item.title}</h3>
        <GradeBadge gradeCode={item.gradeCode} gradingService={item.gradingService} />
        <div className="mall-card-bottom">
          <Price fen={item.price} size="sm" muted={soldOut} />
          <span className="mall-card-sold">{t('mall.sold', { count: item.sold })}</span>
        </div>
      </div>
    </Link>
  )
}

export function MallCardSkeleton() {
  return (
    <div className="mall-card mall-card-skeleton" aria-hidden="true">
      <Skeleton className="mall-card-media" animated />
      <div className="mall-card-info">
        <Skeleton.Paragraph lineCount={2} animated />
      </div>
    </div>
  )
}

/** The mall grid's placeholder while its first page loads. */
export function MallGridSkeleton({ count }: { count: number }) {
  return (
    <div className="mall-grid">
      {Array.from({ length: count }, (_, i) => (
        <MallCardSkeleton key={i} />
      ))}
    </div>
  )
}
