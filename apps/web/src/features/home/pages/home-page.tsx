import { lazy, startTransition, Suspense, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import { BannerSwiper } from '../../../components/banner-swiper'
import { CategoryGrid } from '../../../components/category-grid'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { NoticeBarLater } from '../../../components/notice-bar-later'
import { PageFrame } from '../../../components/page-frame'
import { PullToRefreshLater } from '../../../components/pull-to-refresh-later'
import { Section } from '../../../components/section'
import { getServerClockQueryOptions } from '../../../lib/server-clock'
import { getSpecialListQueryOptions, useSpecialList } from '../api/get-special-list'
import { SpecialCard, SpecialCardSkeleton, SpecialList } from '../../../components/special-card'
import { getBannersQueryOptions, useBanners } from '../../../lib/catalog/get-banners'
import { getCategoriesQueryOptions, useCategories } from '../../../lib/catalog/get-categories'
import { searchLotsQueryOptions } from '../../../lib/catalog/search-lots'
import { searchMallItemsQueryOptions } from '../../../lib/catalog/search-mall-items'
import { useWhenNear } from '../../../lib/use-when-near'
import { BUYING_PARAMS, MALL_PARAMS } from '../components/home-feed-params'
import { HomeHeader } from '../components/home-header'
import styles from './home-page.module.css'

/** Below the fold: its own chunk, mounted when scrolled near or once the first screen settled. */
const HomeFeed = lazy(async () => ({ default: (await import('../components/home-feed')).HomeFeed }))

export function HomePage() {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const banners = useBanners(0)
  const categories = useCategories()
  const specials = useSpecialList()
  // Pull to refresh: everything on the page, the lists starting again from their first page.
  const refresh = async (): Promise<void> => {
    await Promise.all([
      queryClient.refetchQueries(getBannersQueryOptions(0)),
      queryClient.refetchQueries(getCategoriesQueryOptions()),
      queryClient.refetchQueries(getSpecialListQueryOptions()),
      queryClient.refetchQueries(getServerClockQueryOptions()),
      queryClient.resetQueries(searchLotsQueryOptions(BUYING_PARAMS)),
      queryClient.resetQueries(searchMallItemsQueryOptions(MALL_PARAMS)),
    ])
  }

  return (
    <PageFrame header={<HomeHeader />} bodyClassName={styles.body}>
      <PullToRefreshLater onRefresh={refresh}>
        <BannerSwiper banners={banners.isError ? [] : banners.data} className="home-banners" />
        <Link to="/rules" className={styles.notice}>
          <NoticeBarLater content={t('rules.intro')} extra={t('home.rules')} />
        </Link>
        <CategoryGrid categories={categories.isError ? [] : categories.data} />
        <Section title={t('home.specials')}>
          {specials.isPending ? (
            <SpecialList>
              <SpecialCardSkeleton />
            </SpecialList>
          ) : specials.isError ? (
            <LoadFailed onRetry={() => specials.refetch()} />
          ) : specials.data.length === 0 ? (
            <EmptyState description={t('home.emptySpecials')} />
          ) : (
            <SpecialList testId="special-list">
              {specials.data.map((special) => (
                <SpecialCard key={special.id} special={special} />
              ))}
            </SpecialList>
          )}
        </Section>
        <DeferredFeed />
      </PullToRefreshLater>
    </PageFrame>
  )
}

function DeferredFeed() {
  const ref = useRef<HTMLDivElement>(null)
  const [mounted, setMounted] = useState(false)
  useWhenNear(ref, () => startTransition(() => setMounted(true)), !mounted)
  const placeholder = <div ref={ref} className={styles.feedPlaceholder} aria-hidden="true" />
  return mounted ? (
    <Suspense fallback={placeholder}>
      <HomeFeed />
    </Suspense>
  ) : (
    placeholder
  )
}
