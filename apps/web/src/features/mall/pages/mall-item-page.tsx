import { PullToRefresh } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { ChatEntryButton } from '../../../components/chat-entry-button'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { EmptyState } from '../../../components/empty-state'
import { itemPageBodyClassName } from '../../../components/item-detail'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { ShareButton } from '../../../components/share-button'
import { isNotFound } from '../../../lib/api-client'
import { useMallCoupons } from '../../../lib/mall/coupons'
import { useMallItem } from '../../../lib/mall/get-mall-item'
import { mallItemShare } from '../../../lib/share/share-info'
import { useShareInfo } from '../../../lib/share/share-store'
import { BuyBar } from '../components/buy-bar'
import { CouponReceive } from '../components/coupon-receive'
import { MallDetailView } from '../components/mall-detail-view'
import styles from './mall-item-page.module.css'

/** /productDetail?productNo=<no>: a mall item (app/product-detail-route.tsx picks this page). */
export function MallItemPage({ productNo }: { productNo: string }) {
  const { t } = useTranslation()
  const item = useMallItem(productNo)
  const coupons = useMallCoupons(productNo)
  useShareInfo(item.data ? mallItemShare(item.data, t) : undefined)
  return (
    <PageFrame
      bodyClassName={itemPageBodyClassName}
      right={<ShareButton />}
      footerClassName={styles.footer}
      footer={
        item.data ? (
          // 客服 beside the buy bar (issue 11): asks about this item with its card.
          <div className={styles.withChat}>
            <ChatEntryButton item={{ productNo: item.data.productNo }} />
            <div className={styles.bar}>
              <BuyBar item={item.data} />
            </div>
          </div>
        ) : undefined
      }
    >
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([item.refetch(), coupons.refetch()])
        }}
      >
        {/* Data first: a failed background refetch (offline, a blip) keeps the item on screen. */}
        {item.data ? (
          <MallDetailView
            item={item.data}
            coupons={<CouponReceive productNo={item.data.productNo} />}
          />
        ) : isNotFound(item.error) ? (
          <EmptyState description={t('mall.notFound')} />
        ) : item.isError ? (
          <LoadFailed onRetry={() => item.refetch()} />
        ) : (
          <DetailSkeleton />
        )}
      </PullToRefresh>
    </PageFrame>
  )
}
