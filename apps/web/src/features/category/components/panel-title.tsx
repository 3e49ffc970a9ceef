import type { ReactNode } from 'react'
import styles from './panel-title.module.css'

/** The heading of the category page's right-hand panel (auction categories or a mall category). */
export function PanelTitle({ children }: { children: ReactNode }) {
  return <h2 className={styles.title}>{children}</h2>
}
