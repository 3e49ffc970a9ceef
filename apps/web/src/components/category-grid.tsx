import type { Category } from '@numisma/contracts/catalog'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { Link } from 'react-router'
import { categoryMark } from '../lib/category-mark'
import { localName } from '../lib/local-name'
import { useLocale } from '../lib/use-locale'
import { CoinMark, CoinMarkSkeleton } from './coin-mark'
import styles from './category-grid.module.css'

export interface CategoryGridProps {
  categories: readonly Category[] | undefined
  /** Where a category goes (auction category results by default). */
  href?: (category: Category) => string
  /** Three to a row inside the category page's panel rather than a card of its own. */
  inPanel?: boolean
}

/** Auction categories (GET /meta/@category) as coin-shaped entries, four to a row. */
export function CategoryGrid({ categories, href, inPanel = false }: CategoryGridProps) {
  const grid = inPanel ? `${styles.grid} ${styles.panel}` : styles.grid
  const { t } = useTranslation()
  const locale = useLocale()
  if (!categories) {
    return (
      <div className={grid} aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className={styles.cell}>
            <CoinMarkSkeleton />
            <Skeleton.Title animated className={styles.nameSkeleton} />
          </div>
        ))}
      </div>
    )
  }
  if (categories.length === 0) return null
  return (
    <nav className={grid} aria-label={t('tabs.category')}>
      {categories.map((c) => {
        const { mark, style } = categoryMark(c)
        return (
          <Link
            key={c.id}
            className={styles.cell}
            to={href ? href(c) : `/categoryDetail?id=${c.id}&type=auction`}
          >
            <CoinMark mark={mark} variant={style} />
            <span className={styles.name}>{localName(c, locale)}</span>
          </Link>
        )
      })}
    </nav>
  )
}
