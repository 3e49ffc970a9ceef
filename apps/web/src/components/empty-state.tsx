import type { ReactNode } from 'react'
import { ErrorBlock } from 'antd-mobile'
import styles from './empty-state.module.css'

export interface EmptyStateProps {
  description: ReactNode
  title?: ReactNode
  status?: 'empty' | 'default' | 'disconnected' | 'busy'
  children?: ReactNode
}

/** "Nothing here yet": a picture, a sentence, and optionally an action. */
export function EmptyState({
  description,
  title = '',
  status = 'empty',
  children,
}: EmptyStateProps) {
  return (
    <ErrorBlock
      className={styles.emptyState}
      status={status}
      title={title}
      description={description}
    >
      {children}
    </ErrorBlock>
  )
}
