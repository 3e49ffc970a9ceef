import type { ReactNode } from 'react'
import { RightOutline } from 'antd-mobile-icons'
import { Link } from 'react-router'

export interface SectionProps {
  title: ReactNode
  more?: { to: string; label: ReactNode }
  children: ReactNode
}

/** A titled block of a page (home sections, account groups). */
export function Section({ title, more, children }: SectionProps) {
  return (
    <section className="section">
      <div className="section-head">
        <h2 className="section-title">{title}</h2>
        {more ? (
          <Link className="section-more" to={more.to}>
            {more.label}
            <RightOutline />
          </Link>
        ) : null}
      </div>
      <div className="section-body">{children}</div>
    </section>
  )
}
