import type { BidRecord } from '@numisma/contracts/bidding'
import { formatChinaDate } from '@numisma/contracts/dates'
import { PullToRefresh, Skeleton, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { Price } from '../../../components/price'
import { fetchNextOrThrow } from '../../../lib/paging'
import { positiveId } from '../../../lib/query-param'
import { bidRecordKey, useBidHistory } from '../api/get-bid-history'
import { useLotLive } from '../hooks/use-lot-live'
import styles from './product-history-page.module.css'

/** /productHistory?id=: every price change of a lot, newest first, a page at a time as it scrolls. */
export function ProductHistoryPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const id = positiveId(params.get('id'))
  const history = useBidHistory(id)
  // New bids arrive by push: the pages loaded so far are fetched again on each change of the lot.
  useLotLive(id)

  return (
    <PageFrame>
      {id === undefined ? (
        <EmptyState description={t('item.notFound')} />
      ) : (
        <PullToRefresh
          onRefresh={async () => {
            await history.refetch()
          }}
        >
          {history.isPending ? (
            <div className={styles.history}>
              <Skeleton.Paragraph lineCount={6} animated />
            </div>
          ) : history.isError ? (
            <LoadFailed onRetry={() => history.refetch()} />
          ) : history.data.length === 0 ? (
            <EmptyState description={t('history.empty')} />
          ) : (
            <>
              <ol className={styles.history} data-testid="bid-history">
                {history.data.map((record, i) => (
                  <BidRow key={bidRecordKey(record)} record={record} leading={i === 0} />
                ))}
              </ol>
              <InfiniteListEnd
                hasMore={history.hasNextPage}
                loadMore={() => fetchNextOrThrow(history.fetchNextPage)}
              />
            </>
          )}
        </PullToRefresh>
      )}
    </PageFrame>
  )
}

function BidRow({ record, leading }: { record: BidRecord; leading: boolean }) {
  const { t } = useTranslation()
  return (
    <li className={styles.row}>
      <div className={styles.who}>
        <span className={styles.bidder}>{record.bidder}</span>
        {record.mine ? (
          <Tag color="primary" fill="solid">
            {t('history.mine')}
          </Tag>
        ) : null}
        <Tag color={record.auto ? 'warning' : 'default'} fill="outline">
          {record.auto ? t('history.auto') : t('history.direct')}
        </Tag>
        {leading ? (
          <Tag color="danger" fill="solid">
            {t('history.leading')}
          </Tag>
        ) : null}
      </div>
      <div className={styles.what}>
        <Price fen={record.amount} size="md" muted={!leading} />
        <time className={styles.time} dateTime={record.at}>
          {formatChinaDate(record.at, 'MM-DD HH:mm:ss')}
        </time>
      </div>
    </li>
  )
}
