import type { Shipment } from '@numisma/contracts/delivery'
import { Button, Dialog, PullToRefresh, Skeleton } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { inBackground } from '../../../lib/background'
import { useConfirmReceipt, useShipments } from '../../../lib/delivery/shipments'
import { useAllOrders } from '../../../lib/orders/get-all-orders'
import { fetchNextOrThrow } from '../../../lib/paging'
import { showSuccess } from '../../../lib/toast'
import { OrderBrief } from '../components/order-brief'
import { ShipmentCard } from '../components/shipment-card'
import styles from './delivery-page.module.css'

/**
 * /order/selfSend (自提/邮寄): where my goods are on their way out — orders applied for delivery
 * that staff have not shipped or handed over yet, and shipments on the road (waiting to receive)
 * with carrier and tracking number and 确认收货. Completed ones are the records of
 * /order/selfSend/list.
 */
export function SelfSendPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const orders = useAllOrders()
  const shipped = useShipments('waiting')
  const applied = orders.data?.filter((o) => o.status === 'delivery_applied') ?? []
  const shipments = shipped.data?.pages.flatMap((page) => page.data) ?? []
  const loading = orders.isPending || shipped.isPending
  const failed = (orders.isError && !orders.data) || (shipped.isError && !shipped.data)

  const right = (
    <a onClick={() => inBackground(navigate('/order/selfSend/list'))} data-testid="to-records">
      {t('delivery.records')}
    </a>
  )

  return (
    <PageFrame bodyClassName={styles.body} right={right}>
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([orders.refetch(), shipped.refetch()])
        }}
      >
        {loading ? (
          <div className={styles.list} aria-hidden="true">
            <Skeleton.Paragraph lineCount={4} animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : failed ? (
          <LoadFailed
            onRetry={() => {
              inBackground(orders.refetch())
              inBackground(shipped.refetch())
            }}
          />
        ) : applied.length === 0 && shipments.length === 0 ? (
          <EmptyState description={t('empty.selfSend')}>
            <Button
              size="small"
              color="primary"
              fill="outline"
              onClick={() => inBackground(navigate('/order/applySend'))}
            >
              {t('delivery.apply')}
            </Button>
          </EmptyState>
        ) : (
          <div className={styles.list} data-testid="self-send">
            {applied.length > 0 ? (
              <section className={styles.card} data-testid="self-send-applied">
                <h2 className={styles.cardTitle}>
                  {t('delivery.awaitingDispatch')}
                  <span className={styles.count}>
                    {t('delivery.count', { count: applied.length })}
                  </span>
                </h2>
                {applied.map((order) => (
                  <OrderBrief key={order.id} order={order} />
                ))}
                <p className={styles.hint}>{t('delivery.awaitingDispatchNote')}</p>
              </section>
            ) : null}
            {shipments.length > 0 ? (
              <h2 className={styles.cardTitle}>{t('delivery.onTheWay')}</h2>
            ) : null}
            {shipments.map((s) => (
              <ShipmentCard key={s.id} shipment={s} actions={<ShipmentActions shipment={s} />} />
            ))}
            {shipments.length > 0 ? (
              <InfiniteListEnd
                hasMore={shipped.hasNextPage}
                loadMore={() => fetchNextOrThrow(shipped.fetchNextPage)}
              />
            ) : null}
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

function ShipmentActions({ shipment }: { shipment: Shipment }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const confirm = useConfirmReceipt()
  const onConfirm = async () => {
    const ok = await Dialog.confirm({
      title: t('delivery.confirmTitle'),
      content: t('delivery.confirmContent'),
      confirmText: t('delivery.confirmReceipt'),
      cancelText: t('common.cancel'),
    })
    if (!ok) return
    try {
      await confirm.mutateAsync(shipment.id)
      showSuccess(t('delivery.received'))
    } catch {
      // request() toasted the reason (or spec §8's "submit failed"); the lists were refreshed.
    }
  }
  return (
    <>
      <Button
        size="mini"
        fill="outline"
        onClick={() => inBackground(navigate(`/order/selfSend/list?id=${shipment.id}`))}
      >
        {t('delivery.detail')}
      </Button>
      {shipment.status === 'shipped' ? (
        <Button
          size="mini"
          color="primary"
          loading={confirm.isPending}
          data-testid="confirm-receipt"
          onClick={() => inBackground(onConfirm())}
        >
          {t('delivery.confirmReceipt')}
        </Button>
      ) : null}
    </>
  )
}
