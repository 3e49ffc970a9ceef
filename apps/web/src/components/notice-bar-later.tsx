import type { ReactNode } from 'react'
import styles from './notice-bar-later.module.css'
import { useGestures } from './use-gestures'

export interface NoticeBarLaterProps {
  content: string
  extra?: ReactNode
}

/**
 * antd-mobile's NoticeBar (color alert), whose code and sound icon come with the later components
 * (./gestures) right after the first render (issue 13). Until then, and in the server's first
 * screen, its text stands still in the bar's own box, as the bar itself keeps it for its first two
 * seconds; the icon's place is kept, so nothing moves when the bar arrives.
 */
export function NoticeBarLater({ content, extra }: NoticeBarLaterProps) {
  const gestures = useGestures()
  if (gestures) return <gestures.NoticeBar content={content} color="alert" extra={extra} />
  return (
    <div className={styles.bar}>
      <span className={styles.icon} />
      <span className={styles.content}>
        <span className={styles.inner}>{content}</span>
      </span>
      {extra ? <span className={styles.extra}>{extra}</span> : null}
    </div>
  )
}
