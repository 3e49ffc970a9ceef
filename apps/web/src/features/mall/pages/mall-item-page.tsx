import { Button, PullToRefresh } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { useMallItem } from '../api/get-mall-item'
import { MallDetailView } from '../components/mall-detail-view'

/** /productDetail?productNo=<no>: a mall item (app/product-detail-route.tsx picks this page). */
export function MallItemPage({ productNo }: { productNo: string }) {
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
