import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

/**
 * Top-level collecting categories. Ids are the catalogue's category ids; the full tree comes from
 * GET /meta/@category in the catalogue issue.
 */
export const CATEGORIES = [
  { id: 1, key: 'ancient', mark: '古' },
  { id: 2, key: 'machine', mark: '机' },
  { id: 3, key: 'banknote', mark: '钞' },
  { id: 4, key: 'commemorative', mark: '金' },
  { id: 5, key: 'graded', mark: '评' },
  { id: 6, key: 'stamps', mark: '邮' },
  { id: 7, key: 'medal', mark: '章' },
  { id: 8, key: 'foreign', mark: '外' },
] as const

export function CategoryGrid() {
  const { t } = useTranslation()
  return (
    <nav className="category-grid" aria-label={t('tabs.category')}>
      {CATEGORIES.map((c) => (
        <Link key={c.id} className="category-cell" to={`/categoryDetail?id=${c.id}`}>
          <span className={`coin-mark coin-mark-${c.key}`} aria-hidden="true">
            {c.mark}
          </span>
          <span className="category-name">{t(`categories.${c.key}`)}</span>
        </Link>
      ))}
    </nav>
  )
}
