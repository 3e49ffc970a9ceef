import { useState } from 'react'
import { Badge, SearchBar, Tabs } from 'antd-mobile'
import { FilterOutline } from 'antd-mobile-icons'
import type { MallCategoryNode } from '@numisma/contracts/catalog'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { LotCard, LotList, LotListSkeleton } from '../../../components/lot-card'
import { MallCard, MallGrid, MallGridSkeleton } from '../../../components/mall-card'
import { PageFrame } from '../../../components/page-frame'
import { localName } from '../../../lib/local-name'
import { fetchNextOrThrow } from '../../../lib/paging'
import { useLocale } from '../../../lib/use-locale'
import { useCategories } from '../../../lib/catalog/get-categories'
import { useMallCategoryTree } from '../../../lib/catalog/get-mall-category-tree'
import { useSearchLots } from '../../../lib/catalog/search-lots'
import { useSearchMallItems } from '../../../lib/catalog/search-mall-items'
import { SearchFilterPopup } from '../components/search-filter-popup'
import {
  activeFilterCount,
  parseSearchState,
  searchStateToUrl,
  toSearchParams,
  type SearchSort,
  type SearchState,
} from '../components/search-state'
import styles from './category-detail-page.module.css'

const AUCTION_SORTS: readonly SearchSort[] = ['ending', 'price_asc', 'price_desc', 'newest', 'bids']
const MALL_SORTS: readonly SearchSort[] = ['newest', 'price_asc', 'price_desc']

function findNode(nodes: readonly MallCategoryNode[], id: number): MallCategoryNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node
    const found = findNode(node.children, id)
    if (found) return found
  }
  return undefined
}

/**
 * /categoryDetail: search results for a category and/or keyword (the search service), with
 * sort, filters and infinite scroll. The whole state lives in the URL.
 */
export function CategoryDetailPage() {
  const { t } = useTranslation()
  const locale = useLocale()
  const [params, setParams] = useSearchParams()
  const state = parseSearchState(params)
  const [filtersOpen, setFiltersOpen] = useState(false)
  const [keyword, setKeyword] = useState(state.keyword)
  const categories = useCategories()
  const tree = useMallCategoryTree()

  const update = (next: SearchState): void => {
    setParams(searchStateToUrl(next), { replace: true })
  }

  const category =
    state.categoryId === undefined
      ? undefined
      : state.type === 'auction'
        ? categories.data?.find((c) => c.id === state.categoryId)
        : tree.data
          ? findNode(tree.data, state.categoryId)
          : undefined
  const categoryName = category ? localName(category, locale) : undefined

  const sorts = state.type === 'mall' ? MALL_SORTS : AUCTION_SORTS
  const sort = sorts.includes(state.sort) ? state.sort : sorts[0]!
  const filters = activeFilterCount(state)

  return (
    <PageFrame>
      <div className={styles.toolbar}>
        {state.keyword !== '' || state.categoryId === undefined ? (
          <div className={styles.search} role="search">
            <SearchBar
              placeholder={t('home.search')}
              value={keyword}
              onChange={setKeyword}
              onSearch={(value) => update({ ...state, keyword: value.trim() })}
              onClear={() => setKeyword('')}
            />
          </div>
        ) : null}
        {categoryName ? <h2 className={styles.category}>{categoryName}</h2> : null}
        {state.keyword !== '' ? (
          <Tabs
            className={styles.tabs}
            activeKey={state.type}
            onChange={(key) => update({ ...state, type: key === 'mall' ? 'mall' : 'auction' })}
          >
            <Tabs.Tab key="auction" title={t('search.lots')} />
            <Tabs.Tab key="mall" title={t('search.mall')} />
          </Tabs>
        ) : null}
        <div className={styles.sorts} role="toolbar" aria-label={t('search.sort')}>
          {sorts.map((s) => (
            <button
              key={s}
              type="button"
              className={s === sort ? `${styles.sort} ${styles.sortActive}` : styles.sort}
              aria-pressed={s === sort}
              onClick={() => update({ ...state, sort: s })}
            >
              {t(`search.sorts.${s}`)}
            </button>
          ))}
          <button type="button" className={styles.filter} onClick={() => setFiltersOpen(true)}>
            <Badge content={filters > 0 ? filters : null}>
              <span className={styles.filterLabel}>
                <FilterOutline />
                {t('search.filter')}
              </span>
            </Badge>
          </button>
        </div>
      </div>
      {state.type === 'mall' ? <MallResults state={state} /> : <LotResults state={state} />}
      <SearchFilterPopup
        visible={filtersOpen}
        state={state}
        onClose={() => setFiltersOpen(false)}
        onApply={(next) => {
          setFiltersOpen(false)
          update(next)
        }}
      />
    </PageFrame>
  )
}

function ResultCount({ total }: { total: number }) {
  const { t } = useTranslation()
  return <p className={styles.count}>{t('search.total', { count: total })}</p>
}

function LotResults({ state }: { state: SearchState }) {
  const { t } = useTranslation()
  const query = useSearchLots(toSearchParams(state), 'GET_LIST_FAILED')
  if (query.isPending) {
    return <LotListSkeleton count={5} />
  }
  if (query.isError && !query.data) return <LoadFailed onRetry={() => query.refetch()} />
  const lots = query.data.pages.flatMap((p) => p.data)
  if (lots.length === 0) return <EmptyState description={t('search.empty')} />
  return (
    <>
      <ResultCount total={query.data.pages[0]?.total ?? lots.length} />
      <LotList testId="results">
        {lots.map((lot) => (
          <LotCard key={lot.id} lot={lot} />
        ))}
        <InfiniteListEnd
          hasMore={query.hasNextPage}
          loadMore={() => fetchNextOrThrow(query.fetchNextPage)}
        />
      </LotList>
    </>
  )
}

function MallResults({ state }: { state: SearchState }) {
  const { t } = useTranslation()
  const query = useSearchMallItems(toSearchParams(state))
  if (query.isPending) {
    return <MallGridSkeleton count={4} />
  }
  if (query.isError && !query.data) return <LoadFailed onRetry={() => query.refetch()} />
  const items = query.data.pages.flatMap((p) => p.data)
  if (items.length === 0) return <EmptyState description={t('search.empty')} />
  return (
    <>
      <ResultCount total={query.data.pages[0]?.total ?? items.length} />
      <MallGrid testId="results">
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
