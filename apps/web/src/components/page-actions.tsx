import type { ReactNode } from 'react'
import styles from './page-actions.module.css'

/** A page's closing buttons, stacked full width (sign out, back home…). */
export function PageActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>
}
