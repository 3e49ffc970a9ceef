import type { ReactNode } from 'react'
import { EmptyState } from './empty-state'
import { PageFrame } from './page-frame'

/** A route whose data arrives in a later issue: its frame with a proper empty state. */
export function EmptyPage({
  description,
  children,
}: {
  description: ReactNode
  children?: ReactNode
}) {
  return (
    <PageFrame>
      <EmptyState description={description}>{children}</EmptyState>
    </PageFrame>
  )
}
