import { useRef } from 'react'
import { PullToRefresh, Skeleton } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { LotCard, LotList, LotListSkeleton } from '../../../components/lot-card'
import { PageFrame } from '../../../components/page-frame'
import { ShareButton } from '../../../components/share-button'
import { positiveId } from '../../../lib/query-param'
import { useRenderedWhenNear } from '../../../lib/render-in-steps'
import { specialShare } from '../../../lib/share/share-info'
import { useShareInfo } from '../../../lib/share/share-store'
import { useSpecial } from '../api/get-special'
import { SpecialHeader } from '../components/special-header'
import styles from './special-detail-page.module.css'

/** /specialDetail?id=: the special's header and its lots in lot order (kept alive). */
export function SpecialDetailPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const id = positiveId(params.get('id'))
  const special = useSpecial(id)
  const listEnd = useRef<HTMLDivElement>(null)
  const shown = useRenderedWhenNear(special.data?.lots.length ?? 0, listEnd)
  useShareInfo(special.data ? specialShare(special.data, t) : undefined)

  if (id === undefined) {
    return (
      <PageFrame>
        <EmptyState description={t('special.notFound')} />
      </PageFrame>
    )
  }

  return (
    <PageFrame right={<ShareButton />}>
      <PullToRefresh
        onRefresh={async () => {
          await special.refetch()
        }}
      >
        {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
        {special.isPending ? (
          <>
            <Skeleton animated className={styles.heroSkeleton} />
            <LotListSkeleton count={4} />
          </>
        ) : special.data === undefined ? (
          <LoadFailed onRetry={() => special.refetch()} />
        ) : (
          <>
            <SpecialHeader special={special.data} />
            <h2 className={styles.listHeading}>
              {t('special.lotList')}
              <span className={styles.listCount}>
                {t('special.lotCount', { count: special.data.lots.length })}
              </span>
            </h2>
            {special.data.lots.length === 0 ? (
              <EmptyState description={t('special.noLots')} />
            ) : (
              <>
                <LotList testId="special-lots">
                  {special.data.lots.slice(0, shown).map((lot) => (
                    <LotCard key={lot.id} lot={lot} />
                  ))}
                </LotList>
                <div ref={listEnd} />
              </>
            )}
          </>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}
