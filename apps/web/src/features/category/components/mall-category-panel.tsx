import type { MallCategoryNode } from '@numisma/contracts/catalog'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { firstChar } from '../../../lib/category-mark'
import { localName } from '../../../lib/local-name'
import { useLocale } from '../../../lib/use-locale'

const mallHref = (id: number): string => `/categoryDetail?id=${id}&type=mall`

function Tile({ node }: { node: MallCategoryNode }) {
  const locale = useLocale()
  return (
    <Link className="category-tile" to={mallHref(node.id)}>
      <span className="coin-mark coin-mark-default" aria-hidden="true">
        {firstChar(node.name)}
      </span>
      <span className="category-name">{localName(node, locale)}</span>
    </Link>
  )
}

/** A top-level mall category: "all of it", then its children (grouped when they have their own). */
export function MallCategoryPanel({ node }: { node: MallCategoryNode }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const name = localName(node, locale)
  const leaves = node.children.filter((c) => c.children.length === 0)
  const groups = node.children.filter((c) => c.children.length > 0)
  return (
    <>
      <div className="category-panel-head">
        <h2 className="category-panel-title">{name}</h2>
        <Link className="section-more" to={mallHref(node.id)}>
          {t('category.all')}
        </Link>
      </div>
      {node.children.length === 0 ? (
        <EmptyState description={t('category.noChildren')}>
          <Link className="category-all-link" to={mallHref(node.id)}>
            {t('category.browseAll', { name })}
          </Link>
        </EmptyState>
      ) : null}
      {leaves.length > 0 ? (
        <div className="category-tiles">
          {leaves.map((c) => (
            <Tile key={c.id} node={c} />
          ))}
        </div>
      ) : null}
      {groups.map((group) => (
        <div key={group.id} className="category-group">
          <Link className="category-group-title" to={mallHref(group.id)}>
            {localName(group, locale)}
          </Link>
          <div className="category-tiles">
            {group.children.map((c) => (
              <Tile key={c.id} node={c} />
            ))}
          </div>
        </div>
      ))}
    </>
  )
}
