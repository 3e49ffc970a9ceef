import type { ChatCard, ChatMessage } from '@numisma/contracts/chat'
import { ImageViewer } from 'antd-mobile'
import { CloseCircleFill } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { ChatCardView } from '../../../components/chat-card-view'
import { ChatRow, ChatTextBubble } from '../../../components/chat-row'
import { chatImageSrc } from '../../../lib/chat/image'
import type { PendingMessage } from '../../../lib/chat/thread'
import { getClientConfig } from '../../../lib/config'
import styles from './message-bubble.module.css'

interface BubbleProps {
  mine: boolean
  /** The letter in the collector's avatar (their display name's first). */
  initial: string
  onOpenCard: (card: ChatCard) => void
  /** A picture finished loading (the thread may need to scroll to keep the newest in view). */
  onImageLoad?: () => void
}

/** A stored message: mine on the right, the agent's on the left with its avatar. */
export function MessageBubble({ message, ...props }: BubbleProps & { message: ChatMessage }) {
  return (
    <Row {...props} testId="chat-message" id={message.id}>
      <Body
        kind={message.kind}
        text={message.text}
        image={message.imageUrl}
        card={message.card}
        {...props}
      />
    </Row>
  )
}

/** A message not stored yet: a spinner while it goes, a red mark to retry once it failed. */
export function PendingBubble({
  pending,
  card,
  onRetry,
  ...props
}: BubbleProps & { pending: PendingMessage; card: ChatCard | undefined; onRetry: () => void }) {
  const { t } = useTranslation()
  const send = pending.send
  return (
    <Row {...props} testId="chat-pending" state={pending.state}>
      {pending.state === 'failed' ? (
        <button
          type="button"
          className={styles.failed}
          aria-label={t('chat.failed')}
          title={t('chat.failed')}
          data-testid="chat-retry"
          onClick={onRetry}
        >
          <CloseCircleFill />
        </button>
      ) : (
        <span className={styles.sending} role="status" aria-label={t('chat.sending')} />
      )}
      <Body
        kind={send.kind}
        text={send.kind === 'text' ? send.text : undefined}
        image={pending.preview}
        card={card}
        {...props}
      />
    </Row>
  )
}

function Row({
  mine,
  initial,
  testId,
  id,
  state,
  children,
}: Pick<BubbleProps, 'mine' | 'initial'> & {
  testId: string
  id?: number
  state?: string
  children: React.ReactNode
}) {
  const { t } = useTranslation()
  return (
    <ChatRow
      from={mine ? 'user' : 'agent'}
      mine={mine}
      initial={mine ? initial : t('chat.agent').slice(0, 1)}
      testId={testId}
      id={id}
      state={state}
    >
      {children}
    </ChatRow>
  )
}

function Body({
  kind,
  text,
  image,
  card,
  mine,
  onOpenCard,
  onImageLoad,
}: BubbleProps & {
  kind: ChatMessage['kind']
  text: string | undefined
  image: string | undefined
  card: ChatCard | undefined
}) {
  const { t } = useTranslation()
  switch (kind) {
    case 'text':
      return <ChatTextBubble mine={mine}>{text}</ChatTextBubble>
    case 'image': {
      if (!image) return null
      // Under the push base, not main: an <img> (and the zoom's) cannot send the signed headers
      // every main call needs; that route checks the `sid` cookie instead (ADR 018, amended).
      const src = chatImageSrc(image, getClientConfig().services.push)
      return (
        <button
          type="button"
          className={styles.picture}
          onClick={() => ImageViewer.show({ image: src })}
          data-testid="chat-image"
        >
          <img src={src} alt={t('chat.picture')} onLoad={onImageLoad} />
        </button>
      )
    }
    case 'card':
      return card ? (
        <ChatCardView
          card={card}
          kindLabel={card.kind === 'lot' ? t('chat.cardLot') : t('chat.cardMall')}
          onOpen={() => onOpenCard(card)}
        />
      ) : null
  }
}
