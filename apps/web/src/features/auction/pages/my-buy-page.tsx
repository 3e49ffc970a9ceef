import { TRADE_STATES, type Trade, type TradeState } from '@numisma/contracts/bidding'
import { PullToRefresh, Tabs, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { LotCard, LotCardSkeleton } from '../../../components/lot-card'
import { PageFrame } from '../../../components/page-frame'
import { Price } from '../../../components/price'
import { getMyBidsQueryOptions, useMyBids } from '../api/get-my-bids'
import { useLiveLotList } from '../hooks/use-lot-live'
import styles from './my-lists.module.css'

/** /myBuy: the lots I have bid on, by where I stand — one call, counted and filtered here. */
export function MyBuyPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const tab: TradeState = TRADE_STATES.find((k) => k === params.get('tab')) ?? 'leading'
  const bids = useMyBids()
  useLiveLotList(getMyBidsQueryOptions().queryKey, bids.data)
  const count = (state: TradeState) => bids.data?.filter((b) => b.state === state).length ?? 0
  const shown = bids.data?.filter((b) => b.state === tab) ?? []

  return (
    <PageFrame>
      <Tabs
        className={styles.tabs}
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
      >
        {TRADE_STATES.map((key) => (
          <Tabs.Tab
            key={key}
            title={
              <span className={styles.tabTitle}>
                {t(`myBids.tabs.${key}`)}
                {count(key) > 0 ? <span className={styles.tabCount}>{count(key)}</span> : null}
              </span>
            }
          />
        ))}
      </Tabs>
      <PullToRefresh
        onRefresh={async () => {
          await bids.refetch()
        }}
      >
        {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
        {bids.isPending ? (
          <div className={styles.list}>
            <LotCardSkeleton />
            <LotCardSkeleton />
            <LotCardSkeleton />
          </div>
        ) : bids.data === undefined ? (
          <LoadFailed onRetry={() => bids.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState description={t(`myBids.empty.${tab}`)} />
        ) : (
          <div className={styles.list} data-testid="my-bids">
            {shown.map((bid) => (
              <LotCard key={bid.id} lot={bid} extra={<MyBidLine bid={bid} />} />
            ))}
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

function MyBidLine({ bid }: { bid: Trade }) {
  const { t } = useTranslation()
  const color =
    bid.state === 'leading' || bid.state === 'won'
      ? 'success'
      : bid.state === 'outbid'
        ? 'danger'
        : 'default'
  return (
    <div className={styles.line} data-state={bid.state}>
      <Tag color={color} fill="solid">
        {t(`myBids.tabs.${bid.state}`)}
      </Tag>
      <span className={styles.lineLabel}>{t('myBids.myHighest')}</span>
      <Price fen={bid.myHighest} size="sm" muted={bid.state !== 'leading' && bid.state !== 'won'} />
    </div>
  )
}
