import { useState } from 'react'
import type { MallCategoryNode } from '@numisma/contracts/catalog'
import { SideBar, Skeleton } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { BannerSwiper } from '../../../components/banner-swiper'
import { CategoryGrid } from '../../../components/category-grid'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { localName } from '../../../lib/local-name'
import { useLocale } from '../../../lib/use-locale'
import { useBanners } from '../../../lib/catalog/get-banners'
import { useCategories } from '../../../lib/catalog/get-categories'
import { useMallCategoryTree } from '../../../lib/catalog/get-mall-category-tree'
import { MallCategoryPanel } from '../components/mall-category-panel'
import { PanelTitle } from '../components/panel-title'
import styles from './category-page.module.css'

const AUCTION_KEY = 'auction'

/**
 * Category banners on top; a side bar with the auction categories first and then each top-level
 * mall category, whose sub-categories show as tiles. Every entry opens /categoryDetail.
 */
export function CategoryPage() {
  const { t } = useTranslation()
  const locale = useLocale()
  const banners = useBanners(1)
  const categories = useCategories()
  const tree = useMallCategoryTree()
  const [active, setActive] = useState(AUCTION_KEY)
  const topLevel: MallCategoryNode[] = tree.data ?? []
  const node = topLevel.find((n) => String(n.id) === active)

  return (
    <PageFrame bodyClassName="category-body">
      <BannerSwiper banners={banners.isError ? [] : banners.data} className="category-banners" />
      <div className={styles.layout}>
        <SideBar className={styles.sidebar} activeKey={active} onChange={setActive}>
          <SideBar.Item key={AUCTION_KEY} title={t('category.auction')} />
          {topLevel.map((n) => (
            <SideBar.Item key={String(n.id)} title={localName(n, locale)} />
          ))}
        </SideBar>
        <div className={styles.panel}>
          {active === AUCTION_KEY || !node ? (
            <>
              <PanelTitle>{t('category.auctionTitle')}</PanelTitle>
              {categories.isError ? (
                <LoadFailed onRetry={() => categories.refetch()} />
              ) : categories.data?.length === 0 ? (
                <EmptyState description={t('category.empty')} />
              ) : (
                <CategoryGrid categories={categories.data} inPanel />
              )}
              {tree.isPending ? <Skeleton.Paragraph lineCount={3} animated /> : null}
              {tree.isError ? <LoadFailed onRetry={() => tree.refetch()} /> : null}
            </>
          ) : (
            <MallCategoryPanel node={node} />
          )}
        </div>
      </div>
    </PageFrame>
  )
}
