import type { ChatSender } from '@numisma/contracts/chat'
import type { ReactNode } from 'react'
import styles from './chat-row.module.css'

/**
 * A row of a chat thread (the collector's page, the staff desk): the sender's avatar letter and the
 * content, on the right when it is the viewer's own.
 */
export function ChatRow({
  from,
  mine,
  initial,
  testId,
  id,
  state,
  children,
}: {
  from: ChatSender
  mine: boolean
  initial: string
  testId: string
  id?: number
  state?: string
  children: ReactNode
}) {
  return (
    <li
      className={mine ? `${styles.row} ${styles.mine}` : styles.row}
      data-testid={testId}
      data-from={from}
      data-id={id}
      data-state={state}
    >
      <span
        className={from === 'user' ? `${styles.avatar} ${styles.user}` : styles.avatar}
        aria-hidden
      >
        {initial}
      </span>
      <div className={styles.content}>{children}</div>
    </li>
  )
}

/** A text message's bubble, the viewer's own tinted. */
export function ChatTextBubble({ mine, children }: { mine: boolean; children: ReactNode }) {
  return (
    <p className={mine ? `${styles.bubble} ${styles.mineBubble}` : styles.bubble}>{children}</p>
  )
}
