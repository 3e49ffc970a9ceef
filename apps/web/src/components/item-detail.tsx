import type { ComponentPropsWithoutRef, ReactNode } from 'react'
import { useTranslation } from '../lib/i18n'
import styles from './item-detail.module.css'

/** PageFrame's bodyClassName for an item page: the cards sit on the app's background. */
export const itemPageBodyClassName = styles.pageBody

/** The page of one item (an auction lot, a mall item): photos and cards one under another. */
export function ItemDetail({ className, ...rest }: ComponentPropsWithoutRef<'article'>) {
  return (
    <article
      className={className ? `${styles.detail} ${className}` : styles.detail}
      data-testid="item-detail"
      {...rest}
    />
  )
}

/** A white card of an item page, with an optional section title. */
export function ItemCard({
  title,
  children,
  className,
  ...rest
}: ComponentPropsWithoutRef<'section'> & { title?: ReactNode }) {
  return (
    <section className={className ? `${styles.card} ${className}` : styles.card} {...rest}>
      {title ? <h2 className={styles.sectionTitle}>{title}</h2> : null}
      {children}
    </section>
  )
}

export function ItemHeading({ title, subtitle }: { title: string; subtitle?: string | null }) {
  return (
    <>
      <h1 className={styles.title} data-testid="item-title">
        {title}
      </h1>
      {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
    </>
  )
}

/** A wrapping row of tags (grade, reserve, stock…). */
export function ItemTags({ children }: { children: ReactNode }) {
  return <div className={styles.tags}>{children}</div>
}

export function ItemCert({ certNo }: { certNo: string | null | undefined }) {
  const { t } = useTranslation()
  return certNo ? <span className={styles.cert}>{t('item.certNo', { no: certNo })}</span> : null
}

/** The two-column facts list; its rows are ItemFacts. */
export function ItemFacts({ children }: { children: ReactNode }) {
  return <dl className={styles.facts}>{children}</dl>
}

/** The 描述 card, when the item has a description. */
export function ItemDescription({ text }: { text: string | null | undefined }) {
  const { t } = useTranslation()
  if (!text) return null
  return (
    <ItemCard title={t('item.description')}>
      <p className={styles.description}>{text}</p>
    </ItemCard>
  )
}
