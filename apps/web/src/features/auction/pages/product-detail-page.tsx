import { Button, PullToRefresh, Skeleton } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { positiveId } from '../../../lib/query-param'
import { useMallItem } from '../../mall/api/get-mall-item'
import { MallDetailView } from '../../mall/components/mall-detail-view'
import { useLot } from '../api/get-lot'
import { BidBar } from '../components/bid-bar'
import { LotDetailView } from '../components/lot-detail-view'
import { WatchButton } from '../components/watch-button'
import { useLotLive } from '../hooks/use-lot-live'

/** /productDetail?id=<lotId> for an auction lot, ?productNo=<no> for a mall item. */
export function ProductDetailPage() {
  const [params] = useSearchParams()
  const productNo = params.get('productNo')?.trim()
  if (productNo) return <MallItemPage productNo={productNo} />
  return <LotPage id={positiveId(params.get('id'))} />
}

function DetailSkeleton() {
  return (
    <div className="item-detail" aria-busy="true">
      <Skeleton animated className="photo-gallery-skeleton" />
      <div className="item-card">
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={4} animated />
      </div>
    </div>
  )
}

function LotPage({ id }: { id: number | undefined }) {
  const { t } = useTranslation()
  const lot = useLot(id)
  useLotLive(id)
  if (id === undefined) {
    return (
      <PageFrame>
        <EmptyState description={t('item.notFound')} />
      </PageFrame>
    )
  }
  return (
    <PageFrame
      bodyClassName="item-body"
      right={<WatchButton lotId={id} />}
      footer={lot.data ? <BidBar lot={lot.data} /> : undefined}
    >
      <PullToRefresh
        onRefresh={async () => {
          await lot.refetch()
        }}
      >
        {lot.isPending ? (
          <DetailSkeleton />
        ) : lot.isError ? (
          <LoadFailed onRetry={() => lot.refetch()} />
        ) : (
          <LotDetailView lot={lot.data} />
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

function MallItemPage({ productNo }: { productNo: string }) {
  const { t } = useTranslation()
  const item = useMallItem(productNo)
  const footer = item.data ? (
    <Button block disabled color="primary" className="action-bar-button">
      {!item.data.onSale
        ? t('mall.offSale')
        : item.data.stock <= 0
          ? t('mall.soldOut')
          : t('mall.buySoon')}
    </Button>
  ) : undefined
  return (
    <PageFrame bodyClassName="item-body" footer={footer}>
      <PullToRefresh
        onRefresh={async () => {
          await item.refetch()
        }}
      >
        {item.isPending ? (
          <DetailSkeleton />
        ) : item.isError ? (
          <LoadFailed onRetry={() => item.refetch()} />
        ) : (
          <MallDetailView item={item.data} />
        )}
      </PullToRefresh>
    </PageFrame>
  )
}
