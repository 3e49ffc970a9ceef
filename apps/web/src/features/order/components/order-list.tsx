import { Button, PullToRefresh, Skeleton, Tabs } from 'antd-mobile'
import { useKeepAliveContext } from 'keepalive-for-react'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { inBackground } from '../../../lib/background'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { useRecheckAtExpiry } from '../../../lib/orders/expiry-recheck'
import { useAllOrders } from '../../../lib/orders/get-all-orders'
import { usePendingOrders } from '../../../lib/orders/get-pending-orders'
import { useWaitingToShip } from '../../../lib/delivery/order-groups'
import { OrderCard } from './order-card'
import { ORDER_TABS, ordersOfTab, parseOrderTab } from './order-tabs'
import styles from './order-list.module.css'

/**
 * /order/list and /myOrder (spec §2, both kept alive): the caller's orders by group (spec §4).
 * 待付款 is the spec's pending-payment call, and its length is the tab's count; 待发货 is the spec's
 * two waiting-to-ship reads (won lots and mall orders, with the storage each has run up) and leads
 * to applying for delivery; the other tabs file the caller's whole list by the domain's group of
 * each status (the rule of the server's group reads and counters), so a group with no orders says
 * it has none.
 */
export function OrderList() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const tab = parseOrderTab(params.get('tab'))
  const pending = usePendingOrders()
  const all = useAllOrders(tab !== 'pay' && tab !== 'ship')
  const waiting = useWaitingToShip(tab === 'ship')
  const list = tab === 'pay' ? pending : tab === 'ship' ? waiting : all
  const shown =
    tab === 'pay'
      ? pending.data
      : tab === 'ship'
        ? waiting.data
        : all.data && ordersOfTab(tab, all.data)
  const payCount = pending.data?.length ?? 0
  const { active } = useKeepAliveContext()
  const navigate = useNavigate()
  const inStorage = tab === 'ship' ? (shown ?? []).filter((o) => o.status === 'paid').length : 0
  // An unpaid order whose countdown reaches zero is looked at again once the server cancelled it.
  const loaded = (tab === 'pay' ? [pending] : [pending, tab === 'ship' ? waiting : all]).filter(
    (q) => q.data !== undefined,
  )
  useRecheckAtExpiry(
    loaded.length === 0 ? undefined : loaded.flatMap((q) => q.data ?? []),
    Math.min(...loaded.map((q) => q.dataUpdatedAt)),
    active,
  )

  return (
    <PageFrame>
      <Tabs
        className={styles.tabs}
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
      >
        {ORDER_TABS.map((key) => (
          <Tabs.Tab
            key={key}
            title={
              <span className={styles.tabTitle} data-testid={`order-tab-${key}`}>
                {t(`orderTabs.${key}`)}
                {key === 'pay' && payCount > 0 ? (
                  <span className={styles.tabCount} data-testid="order-pay-count">
                    {payCount}
                  </span>
                ) : null}
              </span>
            }
          />
        ))}
      </Tabs>
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([list.refetch(), tab === 'pay' ? undefined : pending.refetch()])
        }}
      >
        {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
        {list.isPending ? (
          <div className={styles.skeletons} aria-hidden="true">
            <Skeleton.Paragraph lineCount={4} animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : shown === undefined ? (
          <LoadFailed onRetry={() => list.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState description={t(`orders.empty.${tab}`)} />
        ) : (
          <div className={styles.list} data-testid="order-list" data-tab={tab}>
            {inStorage > 0 ? (
              <div className={styles.applyBar}>
                <span>{t('delivery.inStorageCount', { count: inStorage })}</span>
                <Button
                  size="small"
                  color="primary"
                  data-testid="order-apply-all"
                  onClick={() => inBackground(navigate('/order/applySend'))}
                >
                  {t('delivery.apply')}
                </Button>
              </div>
            ) : null}
            {shown.map((order) => (
              <OrderCard key={order.id} order={order} />
            ))}
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}
