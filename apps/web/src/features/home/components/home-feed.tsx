import { useState } from 'react'
import { Tabs } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { LotCard, LotList, LotListSkeleton } from '../../../components/lot-card'
import { MallCard, MallGrid, MallGridSkeleton } from '../../../components/mall-card'
import { fetchNextOrThrow } from '../../../lib/paging'
import { useSearchLots } from '../../../lib/catalog/search-lots'
import { useSearchMallItems } from '../../../lib/catalog/search-mall-items'
import { BUYING_PARAMS, MALL_PARAMS } from './home-feed-params'
import styles from './home-feed.module.css'

type FeedKey = 'buying' | 'mall'

/** 正在竞买 / 商城精选 under sticky tabs; each list loads more as it scrolls. */
export function HomeFeed() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<FeedKey>('buying')
  return (
    <section className={styles.feed}>
      <Tabs
        className={styles.tabs}
        activeKey={tab}
        onChange={(key) => setTab(key === 'mall' ? 'mall' : 'buying')}
      >
        <Tabs.Tab key="buying" title={t('home.buying')} />
        <Tabs.Tab key="mall" title={t('home.mall')} />
      </Tabs>
      {tab === 'buying' ? <BuyingList /> : <MallList />}
    </section>
  )
}

function BuyingList() {
  const { t } = useTranslation()
  const query = useSearchLots(BUYING_PARAMS, 'GET_BUYING_FAILED')
  if (query.isPending) {
    return <LotListSkeleton count={4} />
  }
  if (query.isError && !query.data) return <LoadFailed onRetry={() => query.refetch()} />
  const lots = query.data.pages.flatMap((p) => p.data)
  if (lots.length === 0) return <EmptyState description={t('home.emptyBuying')} />
  return (
    <LotList testId="buying-list">
      {lots.map((lot) => (
        <LotCard key={lot.id} lot={lot} />
      ))}
      <InfiniteListEnd
        hasMore={query.hasNextPage}
        loadMore={() => fetchNextOrThrow(query.fetchNextPage)}
      />
    </LotList>
  )
}

function MallList() {
  const { t } = useTranslation()
  const query = useSearchMallItems(MALL_PARAMS)
  if (query.isPending) {
    return <MallGridSkeleton count={4} />
  }
  if (query.isError && !query.data) return <LoadFailed onRetry={() => query.refetch()} />
  const items = query.data.pages.flatMap((p) => p.data)
  if (items.length === 0) return <EmptyState description={t('home.emptyMall')} />
  return (
    <>
      <MallGrid testId="mall-list">
        {items.map((item) => (
          <MallCard key={item.id} item={item} />
        ))}
      </MallGrid>
      <InfiniteListEnd
        hasMore={query.hasNextPage}
        loadMore={() => fetchNextOrThrow(query.fetchNextPage)}
      />
    </>
  )
}
