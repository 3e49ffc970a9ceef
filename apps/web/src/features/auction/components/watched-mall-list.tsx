import type { WatchedMallItem } from '@numisma/contracts/mall'
import { Button, PullToRefresh, SwipeAction } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { Link, useNavigate } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { GradeBadge } from '../../../components/grade-badge'
import { LoadFailed } from '../../../components/load-failed'
import { LotCardSkeleton } from '../../../components/lot-card'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { useToggleMallWatch, useWatchedMallItems } from '../../../lib/mall/watch'
import { showSuccess } from '../../../lib/toast'
import styles from './watched-mall-list.module.css'
import { ItemImage } from '../../../components/item-image'

/** Where a watched item stands: off sale and sold out say so instead of the stock. */
function Availability({ item }: { item: WatchedMallItem }) {
  const { t } = useTranslation()
  if (!item.onSale) return <span className={styles.unavailable}>{t('mall.offSale')}</span>
  if (item.stock <= 0) return <span className={styles.unavailable}>{t('mall.soldOut')}</span>
  return <span>{t('mall.stock', { count: item.stock })}</span>
}

/** A watched mall item as a row: photo, title, grade, price, and whether it can be bought. */
export function WatchedMallRow({ item }: { item: WatchedMallItem }) {
  const { t } = useTranslation()
  const buyable = item.onSale && item.stock > 0
  return (
    <Link
      className={styles.row}
      to={`/productDetail?productNo=${encodeURIComponent(item.productNo)}`}
      data-testid="watched-mall-item"
      data-product-no={item.productNo}
    >
      <div className={styles.media}>
        <ItemImage src={item.image} alt={item.title} />
        {buyable ? null : (
          <span className={styles.ribbon}>
            {item.onSale ? t('mall.soldOut') : t('mall.offSale')}
          </span>
        )}
      </div>
      <div className={styles.info}>
        <h3 className={styles.title}>{item.title}</h3>
        <GradeBadge
          gradeCode={item.gradeCode}
          gradingService={item.gradingService}
          className={styles.grade}
        />
        <div className={styles.bottom}>
          <Price fen={item.price} size="md" muted={!buyable} />
          <span className={styles.meta}>
            <Availability item={item} />
            <span>{t('mall.sold', { count: item.sold })}</span>
          </span>
        </div>
      </div>
    </Link>
  )
}

/** The mall tab of /myLike: the items I watch, newest first; swipe left to stop watching. */
export function WatchedMallList() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const items = useWatchedMallItems()
  const toggle = useToggleMallWatch()

  // A failure toasts from the request's defaults (spec §8); the row stays until the server agrees.
  const unwatch = (productNo: string) =>
    toggle.mutate(
      { productNo, watch: false },
      { onSuccess: () => showSuccess(t('mallWatch.unwatched'), 1200) },
    )

  return (
    <PullToRefresh
      onRefresh={async () => {
        await items.refetch()
      }}
    >
      {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
      {items.isPending ? (
        <div className={styles.list}>
          <LotCardSkeleton />
          <LotCardSkeleton />
        </div>
      ) : items.data === undefined ? (
        <LoadFailed onRetry={() => items.refetch()} />
      ) : items.data.length === 0 ? (
        <EmptyState description={t('myLike.mallEmpty')}>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => inBackground(navigate('/categoryDetail?type=mall'))}
          >
            {t('myLike.mallBrowse')}
          </Button>
        </EmptyState>
      ) : (
        <>
          <p className={styles.hint}>{t('myLike.swipeHint')}</p>
          <div className={styles.list} data-testid="watched-mall-items">
            {items.data.map((item) => (
              <SwipeAction
                key={item.productNo}
                rightActions={[
                  {
                    key: 'unwatch',
                    text: t('myLike.unwatch'),
                    color: 'danger',
                    onClick: () => unwatch(item.productNo),
                  },
                ]}
              >
                <WatchedMallRow item={item} />
              </SwipeAction>
            ))}
          </div>
        </>
      )}
    </PullToRefresh>
  )
}
