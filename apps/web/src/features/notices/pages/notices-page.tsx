import type { Notice } from '@numisma/contracts/notices'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Badge, PullToRefresh, Skeleton } from 'antd-mobile'
import { useEffect, useRef } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { inBackground } from '../../../lib/background'
import { useMarkNoticesRead, useNotices } from '../../../lib/notices/notices'
import { noticeWording } from '../../../lib/notices/wording'
import { fetchNextOrThrow } from '../../../lib/paging'
import styles from './notices-page.module.css'

/**
 * /notices: the caller's notices, newest first, as it scrolls. What is shown is marked read on the
 * server as it arrives; the unread ones keep their mark for this visit so the reader sees what is
 * new.
 */
export function NoticesPage() {
  const { t } = useTranslation()
  const notices = useNotices()
  useMarkShownRead(notices.data)
  return (
    <PageFrame bodyClassName={styles.body}>
      <PullToRefresh
        onRefresh={async () => {
          await notices.refetch()
        }}
      >
        {notices.isPending ? (
          <div className={styles.list}>
            <Skeleton.Paragraph lineCount={6} animated />
          </div>
        ) : notices.isError ? (
          <LoadFailed onRetry={() => notices.refetch()} />
        ) : notices.data.length === 0 ? (
          <EmptyState title={t('notices.empty')} description={t('notices.emptyHint')} />
        ) : (
          <>
            <ol className={styles.list} data-testid="notices">
              {notices.data.map((notice) => (
                <NoticeRow key={notice.id} notice={notice} />
              ))}
            </ol>
            <InfiniteListEnd
              hasMore={notices.hasNextPage}
              loadMore={() => fetchNextOrThrow(notices.fetchNextPage)}
            />
          </>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

/** Marks each unread notice read once, when its page is shown. */
function useMarkShownRead(shown: Notice[] | undefined): void {
  const { mutate } = useMarkNoticesRead()
  const sent = useRef(new Set<number>())
  useEffect(() => {
    const fresh = (shown ?? []).filter((n) => !n.read && !sent.current.has(n.id)).map((n) => n.id)
    if (fresh.length === 0) return
    for (const id of fresh) sent.current.add(id)
    mutate(fresh)
  }, [shown, mutate])
}

function NoticeRow({ notice }: { notice: Notice }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { title, body } = noticeWording(notice, t)
  const link = notice.link
  const content = (
    <>
      <div className={styles.head}>
        <span className={styles.title}>
          {notice.read ? null : (
            <Badge content={Badge.dot} className={styles.dot} aria-label={t('notices.unread')} />
          )}
          {title}
        </span>
        <time className={styles.time} dateTime={notice.createdAt}>
          {formatChinaDate(notice.createdAt, 'YYYY-MM-DD HH:mm')}
        </time>
      </div>
      <p className={styles.text}>{body}</p>
    </>
  )
  return (
    <li
      className={notice.read ? styles.row : `${styles.row} ${styles.unread}`}
      data-testid="notice"
      data-kind={notice.kind}
      data-unread={notice.read ? undefined : 'true'}
    >
      {link === null ? (
        <div className={styles.inner}>{content}</div>
      ) : (
        <button type="button" className={styles.inner} onClick={() => inBackground(navigate(link))}>
          {content}
        </button>
      )}
    </li>
  )
}
