import { InfiniteScroll } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import styles from './infinite-list-end.module.css'

export interface InfiniteListEndProps {
  hasMore: boolean
  /** Fetches the next page; rejects when it failed so the list offers a retry. */
  loadMore: () => Promise<unknown>
}

/** The bottom of an infinite list: loads the next page as it scrolls into view. */
export function InfiniteListEnd({ hasMore, loadMore }: InfiniteListEndProps) {
  const { t } = useTranslation()
  return (
    <InfiniteScroll
      className={styles.end}
      hasMore={hasMore}
      loadMore={async () => {
        await loadMore()
      }}
      threshold={300}
    >
      {(more, failed, retry) =>
        failed ? (
          <span>
            {t('list.failed')}
            <a className={styles.retry} onClick={retry}>
              {t('common.retry')}
            </a>
          </span>
        ) : more ? (
          <span>{t('common.loading')}</span>
        ) : (
          <span>{t('list.noMore')}</span>
        )
      }
    </InfiniteScroll>
  )
}
