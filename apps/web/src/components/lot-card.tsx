import type { LotCard as LotCardData } from '@numisma/contracts/catalog'
import type { ReactNode } from 'react'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Countdown } from './countdown'
import { GradeBadge } from './grade-badge'
import { Price } from './price'

/** Whether the server has settled a lot (no more bidding, whatever the clock says). */
export const isLotClosed = (lot: Pick<LotCardData, 'status'>): boolean =>
  lot.status === 'sold' || lot.status === 'unsold'

/** Which price a lot shows: hammer, last, current or start (i18n key). */
export function priceLabelKey(
  lot: Pick<LotCardData, 'status' | 'price'>,
): 'lot.soldPrice' | 'lot.lastPrice' | 'lot.currentPrice' | 'lot.startPrice' {
  if (isLotClosed(lot)) return lot.status === 'sold' ? 'lot.soldPrice' : 'lot.lastPrice'
  return lot.price !== null ? 'lot.currentPrice' : 'lot.startPrice'
}

/**
 * A lot in a list: photo, title, grade, current (or start) price, bids and its countdown; `extra`
 * adds lines of the caller's own (my highest bid, my proxy maximum) under them.
 */
export function LotCard({ lot, extra }: { lot: LotCardData; extra?: ReactNode }) {
  const { t } = useTranslation()
  const closed = isLotClosed(lot)
  return (
    <Link className="lot-card" to={`/productDetail?id=${lot.id}`} data-lot-id={lot.id}>
      <div className="lot-card-media">
        <img src={lot.image} alt={lot.title} loading="lazy" decoding="async" />
        <span className="lot-card-no">{t('lot.lotNo', { no: lot.lotNo })}</span>
      </div>
      <div className="lot-card-info">
        <h3 className="lot-card-title">{lot.title}</h3>
        <GradeBadge gradeCode={lot.gradeCode} gradingService={lot.gradingService} />
        <div className="lot-card-price">
          <span className="lot-card-price-label">{t(priceLabelKey(lot))}</span>
          <Price
            fen={lot.price ?? lot.startPrice}
            size="md"
            muted={closed && lot.status !== 'sold'}
          />
        </div>
        <div className="lot-card-meta">
          <span className="lot-card-bids">{t('lot.bidCount', { count: lot.bidCount })}</span>
          <Countdown
            startsAt={lot.startsAt}
            endsAt={lot.endsAt}
            closed={closed}
            endedText={lot.status === 'sold' ? t('lot.status.sold') : t('lot.status.ended')}
          />
        </div>
        {extra ? <div className="lot-card-extra">{extra}</div> : null}
      </div>
    </Link>
  )
}

export function LotCardSkeleton() {
  return (
    <div className="lot-card lot-card-skeleton" aria-hidden="true">
      <Skeleton className="lot-card-media" animated />
      <div className="lot-card-info">
        <Skeleton.Paragraph lineCount={3} animated />
      </div>
    </div>
  )
}

/** A list's placeholder while its first page loads. */
export function LotListSkeleton({ count }: { count: number }) {
  return (
    <div className="lot-list">
      {Array.from({ length: count }, (_, i) => (
        <LotCardSkeleton key={i} />
      ))}
    </div>
  )
}
