import { PullToRefresh } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { ActionBarButton } from '../../../components/action-bar-button'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { itemPageBodyClassName } from '../../../components/item-detail'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { useMallItem } from '../../../lib/mall/get-mall-item'
import { MallDetailView } from '../components/mall-detail-view'

/** /productDetail?productNo=<no>: a mall item (app/product-detail-route.tsx picks this page). */
export function MallItemPage({ productNo }: { productNo: string }) {
  const { t } = useTranslation()
  const item = useMallItem(productNo)
  const footer = item.data ? (
    <ActionBarButton block disabled color="primary">
      {!item.data.onSale
        ? t('mall.offSale')
        : item.data.stock <= 0
          ? t('mall.soldOut')
          : t('mall.buySoon')}
    </ActionBarButton>
  ) : undefined
  return (
    <PageFrame bodyClassName={itemPageBodyClassName} footer={footer}>
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
