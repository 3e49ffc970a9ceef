import { ENTRUST_STATES, type Entrust, type EntrustState } from '@numisma/contracts/bidding'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { Button, Dialog, PullToRefresh, Tabs } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { LotCard, LotCardSkeleton } from '../../../components/lot-card'
import { PageFrame } from '../../../components/page-frame'
import { Price } from '../../../components/price'
import { showSuccess } from '../../../lib/toast'
import { inBackground } from '../../../lib/background'
import { useCancelProxy } from '../api/cancel-proxy'
import { getMyProxyBidsQueryOptions, useMyProxyBids } from '../api/get-my-proxy-bids'
import { useProxyBidCounts } from '../api/get-proxy-bid-counts'
import { useLiveLotList } from '../hooks/use-lot-live'
import styles from './my-lists.module.css'

/** /myEntrust (kept alive): my proxy bids by state, counted by the server, cancellable while active. */
export function MyEntrustPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const tab: EntrustState = ENTRUST_STATES.find((k) => k === params.get('tab')) ?? 'active'
  const counts = useProxyBidCounts()
  const list = useMyProxyBids(tab)
  useLiveLotList(getMyProxyBidsQueryOptions(tab).queryKey, list.data)

  return (
    <PageFrame>
      <Tabs
        className={styles.tabs}
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
      >
        {ENTRUST_STATES.map((key) => {
          const n = counts.data?.[key] ?? 0
          return (
            <Tabs.Tab
              key={key}
              title={
                <span className={styles.tabTitle}>
                  {t(`myProxy.tabs.${key}`)}
                  {n > 0 ? <span className={styles.tabCount}>{n}</span> : null}
                </span>
              }
            />
          )
        })}
      </Tabs>
      <PullToRefresh
        onRefresh={async () => {
          await Promise.all([list.refetch(), counts.refetch()])
        }}
      >
        {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
        {list.isPending ? (
          <div className={styles.list}>
            <LotCardSkeleton />
            <LotCardSkeleton />
          </div>
        ) : list.data === undefined ? (
          <LoadFailed onRetry={() => list.refetch()} />
        ) : list.data.length === 0 ? (
          <EmptyState description={t('myProxy.empty')} />
        ) : (
          <div className={styles.list} data-testid="my-proxy-bids">
            {list.data.map((item) => (
              <ProxyBidItem key={`${item.id}-${item.updatedAt}`} item={item} />
            ))}
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

function ProxyBidItem({ item }: { item: Entrust }) {
  const { t } = useTranslation()
  const cancel = useCancelProxy()

  const onCancel = async () => {
    const ok = await Dialog.confirm({
      content: t('bid.cancelProxyConfirm', { amount: `¥${formatFen(item.maxAmount)}` }),
      confirmText: t('myProxy.cancel'),
      cancelText: t('common.cancel'),
    })
    if (!ok) return
    try {
      await cancel.mutateAsync(item.id)
      showSuccess(t('bid.cancelled'))
    } catch {
      // request() has toasted the server's reason; useCancelProxy refreshes the lists either way.
    }
  }

  return (
    <div
      className={styles.item}
      data-testid="proxy-bid"
      data-lot-id={item.id}
      data-state={item.state}
    >
      <LotCard
        lot={item}
        className={styles.itemCard}
        extra={
          <div className={styles.line}>
            <span className={styles.lineLabel}>{t('myProxy.max')}</span>
            <Price fen={item.maxAmount} size="sm" />
          </div>
        }
      />
      <div className={styles.itemActions}>
        <span className={styles.itemTime}>
          {t('myProxy.updatedAt', { time: formatChinaDate(item.updatedAt, 'MM-DD HH:mm') })}
        </span>
        {item.state === 'active' ? (
          <Button
            size="mini"
            fill="outline"
            color="primary"
            loading={cancel.isPending}
            data-testid="cancel-proxy"
            onClick={() => inBackground(onCancel())}
          >
            {t('myProxy.cancel')}
          </Button>
        ) : null}
      </div>
    </div>
  )
}
