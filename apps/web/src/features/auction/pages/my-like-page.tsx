import { useState } from 'react'
import { PullToRefresh, SwipeAction, Tabs, Button } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { LotCard, LotCardSkeleton } from '../../../components/lot-card'
import { PageFrame } from '../../../components/page-frame'
import { useWatchedMallItems } from '../../../lib/mall/watch'
import { showSuccess } from '../../../lib/toast'
import { inBackground } from '../../../lib/background'
import { getWatchedLotsQueryOptions, useWatchedLots } from '../api/get-watched-lots'
import { WatchedMallList } from '../components/watched-mall-list'
import { useLiveLotList } from '../hooks/use-lot-live'
import { useToggleWatch } from '../hooks/use-toggle-watch'
import { defaultLikeTab, LIKE_TABS, parseLikeTab, type LikeTab, type LoadedList } from './like-tab'
import styles from './my-lists.module.css'

/** /myLike: the lots (with live countdowns) and mall items I watch; swipe left to stop watching. */
export function MyLikePage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const named = parseLikeTab(params.get('tab'))
  const lots = useWatchedLots()
  const mall = useWatchedMallItems()
  const loaded = (list: typeof lots | typeof mall): LoadedList =>
    list.data ?? (list.isError ? 'failed' : undefined)
  const suggested = defaultLikeTab(loaded(lots), loaded(mall))
  // Chosen once, when both lists first answer: unwatching the last lot later moves no tab.
  const [opening, setOpening] = useState<LikeTab>()
  if (opening === undefined && suggested !== undefined) setOpening(suggested)
  const tab = named ?? opening ?? suggested
  return (
    <PageFrame>
      <Tabs
        className={styles.tabs}
        activeKey={tab ?? null}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
      >
        {LIKE_TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`myLike.${key}`)} />
        ))}
      </Tabs>
      {tab === undefined ? (
        <div className={styles.list}>
          <LotCardSkeleton />
          <LotCardSkeleton />
        </div>
      ) : tab === 'lots' ? (
        <WatchedLots />
      ) : (
        <WatchedMallList />
      )}
    </PageFrame>
  )
}

function WatchedLots() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const lots = useWatchedLots()
  const toggle = useToggleWatch()
  useLiveLotList(getWatchedLotsQueryOptions().queryKey, lots.data)

  const unwatch = (lotId: number) =>
    toggle.mutate(
      { lotId, watch: false },
      { onSuccess: () => showSuccess(t('bid.unwatched'), 1200) },
    )

  return (
    <PullToRefresh
      onRefresh={async () => {
        await lots.refetch()
      }}
    >
      {/* Load failed only with nothing to show: a failed refetch keeps the last data. */}
      {lots.isPending ? (
        <div className={styles.list}>
          <LotCardSkeleton />
          <LotCardSkeleton />
        </div>
      ) : lots.data === undefined ? (
        <LoadFailed onRetry={() => lots.refetch()} />
      ) : lots.data.length === 0 ? (
        <EmptyState description={t('myLike.empty')}>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => inBackground(navigate('/'))}
          >
            {t('myLike.browse')}
          </Button>
        </EmptyState>
      ) : (
        <>
          <p className={styles.hint}>{t('myLike.swipeHint')}</p>
          <div className={styles.list} data-testid="watched-lots">
            {lots.data.map((lot) => (
              <SwipeAction
                key={lot.id}
                rightActions={[
                  {
                    key: 'unwatch',
                    text: t('myLike.unwatch'),
                    color: 'danger',
                    onClick: () => unwatch(lot.id),
                  },
                ]}
              >
                <LotCard lot={lot} />
              </SwipeAction>
            ))}
          </div>
        </>
      )}
    </PullToRefresh>
  )
}
