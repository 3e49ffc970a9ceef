import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useGestures } from './use-gestures'

/**
 * antd-mobile's PullToRefresh once its code has arrived, right after the first render (issue 13);
 * until then, and in the server's first screen, the content on its own.
 *
 * The content is rendered once, through a portal into a node of its own, which whichever wrapper
 * shows it takes into the page: the pull's arrival moves that node into the pull's box rather than
 * mounting the whole page again inside it, which had been a second render of the page and, on a
 * slow phone, one long task (ADR 026 §11). Laid out as before: the node and its host are plain
 * blocks. The server has no document to make the node in, and renders the content in place.
 */
export function PullToRefreshLater({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>
  children: ReactNode
}) {
  const gestures = useGestures()
  const [node] = useState(() =>
    typeof document === 'undefined' ? undefined : document.createElement('div'),
  )
  if (!node) return children
  const host = <ContentHost node={node} />
  return (
    <>
      {gestures ? (
        <gestures.PullToRefresh onRefresh={onRefresh}>{host}</gestures.PullToRefresh>
      ) : (
        host
      )}
      {createPortal(children, node)}
    </>
  )
}

/**
 * Puts `node` into the page where this is rendered. A layout effect, so it is in the document
 * before the browser paints and before the effects of the content after it (a portal's effects run
 * after those of the siblings before it).
 */
function ContentHost({ node }: { node: HTMLElement }) {
  const ref = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    ref.current?.appendChild(node)
  }, [node])
  return <div ref={ref} />
}
