import type { PurchaseRecord } from '@numisma/contracts/mall'
import { ProductNoSchema } from '@numisma/contracts/mall'
import { formatChinaDate } from '@numisma/contracts/dates'
import { PullToRefresh, Skeleton, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { Link, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { Price } from '../../../components/price'
import { useMallItem } from '../../../lib/mall/get-mall-item'
import { purchaseRecordKey, usePurchaseRecords } from '../../../lib/mall/purchase-records'
import { fetchNextOrThrow } from '../../../lib/paging'
import styles from './order-history-page.module.css'
import { ItemImage } from '../../../components/item-image'

/** /orderHistory?productNo=: who bought a mall item (buyers masked), newest first, as it scrolls. */
export function OrderHistoryPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const parsed = ProductNoSchema.safeParse(params.get('productNo') ?? '')
  const productNo = parsed.success ? parsed.data : undefined
  return (
    <PageFrame bodyClassName={styles.body}>
      {productNo === undefined ? (
        <EmptyState description={t('purchaseRecords.notFound')} />
      ) : (
        <PurchaseRecords productNo={productNo} />
      )}
    </PageFrame>
  )
}

function PurchaseRecords({ productNo }: { productNo: string }) {
  const { t } = useTranslation()
  const records = usePurchaseRecords(productNo)
  const item = useMallItem(productNo)
  return (
    <PullToRefresh
      onRefresh={async () => {
        await Promise.all([records.refetch(), item.refetch()])
      }}
    >
      {item.data ? (
        <Link
          className={styles.item}
          to={`/productDetail?productNo=${encodeURIComponent(productNo)}`}
          data-testid="records-item"
        >
          <ItemImage className={styles.thumb} src={item.data.image} alt="" lazy={false} />
          <div className={styles.itemText}>
            <span className={styles.itemTitle}>{item.data.title}</span>
            <span className={styles.itemMeta}>
              <Price fen={item.data.price} size="sm" />
              <span>{t('mall.sold', { count: item.data.sold })}</span>
            </span>
          </div>
        </Link>
      ) : null}
      {records.isPending ? (
        <div className={styles.records}>
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : records.isError ? (
        <LoadFailed onRetry={() => records.refetch()} />
      ) : records.data.length === 0 ? (
        <EmptyState description={t('purchaseRecords.empty')} />
      ) : (
        <>
          <ol className={styles.records} data-testid="purchase-records">
            {records.data.map((record) => (
              <RecordRow key={purchaseRecordKey(record)} record={record} />
            ))}
          </ol>
          <InfiniteListEnd
            hasMore={records.hasNextPage}
            loadMore={() => fetchNextOrThrow(records.fetchNextPage)}
          />
        </>
      )}
    </PullToRefresh>
  )
}

function RecordRow({ record }: { record: PurchaseRecord }) {
  const { t } = useTranslation()
  return (
    <li className={styles.row} data-testid="purchase-record">
      <div className={styles.who}>
        <span className={styles.buyer}>{record.buyer}</span>
        {record.mine ? (
          <Tag color="primary" fill="solid">
            {t('purchaseRecords.mine')}
          </Tag>
        ) : null}
      </div>
      <div className={styles.what}>
        <span className={styles.quantity}>
          {t('purchaseRecords.quantity', { count: record.quantity })}
        </span>
        <time className={styles.time} dateTime={record.at}>
          {formatChinaDate(record.at, 'YYYY-MM-DD HH:mm:ss')}
        </time>
      </div>
    </li>
  )
}
