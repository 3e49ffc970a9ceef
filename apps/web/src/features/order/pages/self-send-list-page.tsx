import { Button, PullToRefresh, Skeleton } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { isNotFound } from '../../../lib/api-client'
import { inBackground } from '../../../lib/background'
import { useShipment, useShipments } from '../../../lib/delivery/shipments'
import { fetchNextOrThrow } from '../../../lib/paging'
import { positiveId } from '../../../lib/query-param'
import { ShipmentCard } from '../components/shipment-card'
import styles from './delivery-page.module.css'

/**
 * /order/selfSend/list (提货记录). Spec §2 lists it with "purpose not shown"; we read it as the
 * records page that goes with /order/selfSend, fed by the two spec §7 calls nothing else uses:
 * `GET /api/user/logistic/completed` (shipped and pickup records, newest first) and, with `?id=`,
 * `GET /user/{id}/@logistic` (one shipment in full: address or pickup slot, carrier and tracking,
 * every fee and each step's time).
 */
export function SelfSendListPage() {
  const [params] = useSearchParams()
  const id = positiveId(params.get('id') ?? '')
  return id === undefined ? <Records /> : <Detail id={id} />
}

function Records() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const records = useShipments('completed')
  const shipments = records.data?.pages.flatMap((page) => page.data) ?? []
  return (
    <PageFrame bodyClassName={styles.body}>
      <PullToRefresh
        onRefresh={async () => {
          await records.refetch()
        }}
      >
        {records.isPending ? (
          <div className={styles.list} aria-hidden="true">
            <Skeleton.Paragraph lineCount={4} animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : !records.data ? (
          <LoadFailed onRetry={() => records.refetch()} />
        ) : shipments.length === 0 ? (
          <EmptyState description={t('empty.selfSendList')} />
        ) : (
          <div className={styles.list} data-testid="shipment-records">
            {shipments.map((s) => (
              <ShipmentCard
                key={s.id}
                shipment={s}
                actions={
                  <Button
                    size="mini"
                    fill="outline"
                    onClick={() => inBackground(navigate(`/order/selfSend/list?id=${s.id}`))}
                  >
                    {t('delivery.detail')}
                  </Button>
                }
              />
            ))}
            <InfiniteListEnd
              hasMore={records.hasNextPage}
              loadMore={() => fetchNextOrThrow(records.fetchNextPage)}
            />
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

function Detail({ id }: { id: number }) {
  const { t } = useTranslation()
  const shipment = useShipment(id)
  return (
    <PageFrame bodyClassName={styles.body}>
      {shipment.data ? (
        <div className={styles.list} data-testid="shipment-detail">
          <ShipmentCard shipment={shipment.data} detailed />
        </div>
      ) : shipment.isError ? (
        isNotFound(shipment.error) ? (
          <EmptyState description={t('delivery.shipmentNotFound')} />
        ) : (
          <LoadFailed onRetry={() => shipment.refetch()} />
        )
      ) : (
        <PageLoading />
      )}
    </PageFrame>
  )
}
