import type { MallCategoryNode } from '@numisma/contracts/catalog'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { firstChar } from '../../../lib/category-mark'
import { localName } from '../../../lib/local-name'
import { useLocale } from '../../../lib/use-locale'
import { CoinMark } from '../../../components/coin-mark'
import { MoreLink } from '../../../components/section'
import { PanelTitle } from './panel-title'
import styles from './mall-category-panel.module.css'

const mallHref = (id: number): string => `/categoryDetail?id=${id}&type=mall`

function Tile({ node }: { node: MallCategoryNode }) {
  const locale = useLocale()
  return (
    <Link className={styles.tile} to={mallHref(node.id)}>
      <CoinMark mark={firstChar(node.name)} variant="default" />
      <span className={styles.name}>{localName(node, locale)}</span>
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
      <div className={styles.head}>
        <PanelTitle>{name}</PanelTitle>
        <MoreLink to={mallHref(node.id)}>{t('category.all')}</MoreLink>
      </div>
      {node.children.length === 0 ? (
        <EmptyState description={t('category.noChildren')}>
          <Link className="category-all-link" to={mallHref(node.id)}>
            {t('category.browseAll', { name })}
          </Link>
        </EmptyState>
      ) : null}
      {leaves.length > 0 ? (
        <div className={styles.tiles}>
          {leaves.map((c) => (
            <Tile key={c.id} node={c} />
          ))}
        </div>
      ) : null}
      {groups.map((group) => (
        <div key={group.id} className="category-group">
          <Link className={styles.groupTitle} to={mallHref(group.id)}>
            {localName(group, locale)}
          </Link>
          <div className={styles.tiles}>
            {group.children.map((c) => (
              <Tile key={c.id} node={c} />
            ))}
          </div>
        </div>
      ))}
    </>
  )
}
