import { PullToRefresh } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { ChatEntryButton } from '../../../components/chat-entry-button'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { EmptyState } from '../../../components/empty-state'
import { itemPageBodyClassName } from '../../../components/item-detail'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { ShareButton } from '../../../components/share-button'
import { positiveId } from '../../../lib/query-param'
import { lotShare } from '../../../lib/share/share-info'
import { useShareInfo } from '../../../lib/share/share-store'
import { useLot } from '../api/get-lot'
import { BidBar } from '../components/bid-bar'
import { LotDetailView } from '../components/lot-detail-view'
import { WatchButton } from '../components/watch-button'
import { useLotLive } from '../hooks/use-lot-live'
import styles from './product-detail-page.module.css'

/** /productDetail?id=<lotId>: an auction lot (mall items: app/product-detail-route.tsx). */
export function ProductDetailPage() {
  const [params] = useSearchParams()
  return <LotPage id={positiveId(params.get('id'))} />
}

function LotPage({ id }: { id: number | undefined }) {
  const { t } = useTranslation()
  const lot = useLot(id)
  useLotLive(id)
  useShareInfo(lot.data ? lotShare(lot.data, t) : undefined)
  if (id === undefined) {
    return (
      <PageFrame>
        <EmptyState description={t('item.notFound')} />
      </PageFrame>
    )
  }
  return (
    <PageFrame
      bodyClassName={itemPageBodyClassName}
      right={
        <>
          <ShareButton />
          <WatchButton lotId={id} />
        </>
      }
      footerClassName={styles.footer}
      footer={
        lot.data ? (
          // 客服 beside the bid bar (issue 11): asks about this lot with its card.
          <div className={styles.withChat}>
            <ChatEntryButton item={{ lot: id }} />
            <div className={styles.bar}>
              <BidBar lot={lot.data} />
            </div>
          </div>
        ) : undefined
      }
    >
      <PullToRefresh
        onRefresh={async () => {
          await lot.refetch()
        }}
      >
        {/* Data first: a failed background refetch (offline, a blip) keeps the lot on screen. */}
        {lot.data ? (
          <LotDetailView lot={lot.data} />
        ) : lot.isError ? (
          <LoadFailed onRetry={() => lot.refetch()} />
        ) : (
          <DetailSkeleton />
        )}
      </PullToRefresh>
    </PageFrame>
  )
}
