import type { ReactNode } from 'react'
import { useGestures } from './use-gestures'

/**
 * antd-mobile's PullToRefresh once its code has arrived, right after the first render (issue 13);
 * until then, and in the server's first screen, the content on its own. The swap mounts the content
 * afresh inside the pull's wrapper, in one commit, laid out as before.
 */
export function PullToRefreshLater({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>
  children: ReactNode
}) {
  const gestures = useGestures()
  if (!gestures) return children
  return <gestures.PullToRefresh onRefresh={onRefresh}>{children}</gestures.PullToRefresh>
}
