import type { Category } from '@numisma/contracts/catalog'
import { Skeleton } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { categoryMark } from '../lib/category-mark'
import { localName } from '../lib/local-name'
import { useLocale } from '../lib/use-locale'

export interface CategoryGridProps {
  categories: readonly Category[] | undefined
  /** Where a category goes (auction category results by default). */
  href?: (category: Category) => string
}

/** Auction categories (GET /meta/@category) as coin-shaped entries, four to a row. */
export function CategoryGrid({ categories, href }: CategoryGridProps) {
  const { t } = useTranslation()
  const locale = useLocale()
  if (!categories) {
    return (
      <div className="category-grid" aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="category-cell">
            <Skeleton animated className="coin-mark coin-mark-skeleton" />
            <Skeleton.Title animated className="category-name-skeleton" />
          </div>
        ))}
      </div>
    )
  }
  if (categories.length === 0) return null
  return (
    <nav className="category-grid" aria-label={t('tabs.category')}>
      {categories.map((c) => {
        const { mark, style } = categoryMark(c)
        return (
          <Link
            key={c.id}
            className="category-cell"
            to={href ? href(c) : `/categoryDetail?id=${c.id}&type=auction`}
          >
            <span className={`coin-mark coin-mark-${style}`} aria-hidden="true">
              {mark}
            </span>
            <span className="category-name">{localName(c, locale)}</span>
          </Link>
        )
      })}
    </nav>
  )
}
