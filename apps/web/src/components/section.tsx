import type { ReactNode } from 'react'
import { RightOutline } from 'antd-mobile-icons'
import { Link } from 'react-router'
import styles from './section.module.css'

export interface SectionProps {
  title: ReactNode
  more?: { to: string; label: ReactNode }
  children: ReactNode
}

/** A titled block of a page (home sections, account groups). */
export function Section({ title, more, children }: SectionProps) {
  return (
    <section className={styles.section}>
      <div className={styles.head}>
        <h2 className={styles.title}>{title}</h2>
        {more ? (
          <MoreLink to={more.to}>
            {more.label}
            <RightOutline />
          </MoreLink>
        ) : null}
      </div>
      <div>{children}</div>
    </section>
  )
}

/** The small grey "more / all" link at the end of a heading. */
export function MoreLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className={styles.more} to={to}>
      {children}
    </Link>
  )
}
