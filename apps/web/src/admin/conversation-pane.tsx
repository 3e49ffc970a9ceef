import type { ChatCard, ChatMessage, ChatSend, StaffConversation } from '@numisma/contracts/chat'
import { CHAT_TEXT_MAX } from '@numisma/contracts/chat'
import { App, Button, Image, Input, Spin, Typography } from 'antd'
import { useEffect, useMemo, useRef } from 'react'
import { ChatCardView } from '../components/chat-card-view'
import { ChatPictureInput } from '../components/chat-picture-input'
import { ChatRow, ChatTextBubble } from '../components/chat-row'
import { ChatTimeLine } from '../components/chat-time-line'
import { inBackground } from '../lib/background'
import { chatImageSrc, pictureDataUrl } from '../lib/chat/image'
import {
  newClientId,
  stillPending,
  threadItems,
  threadMessages,
  type PendingMessage,
} from '../lib/chat/thread'
import { useComposerText } from '../lib/chat/use-composer-text'
import { usePendingSends } from '../lib/chat/use-pending-sends'
import { useThreadScroll } from '../lib/chat/use-thread-scroll'
import styles from './conversation-pane.module.css'
import { STAFF_BASE } from './staff-api'
import { useConversationMessages, useMarkConversationRead, useReply } from './staff-queries'
import { TEXT } from './texts'

/**
 * One conversation at the desk: its history (older pages on request), live messages, the reply box
 * (Enter sends), pictures. The agent's messages are the desk's own, on the right.
 */
export function ConversationPane({ conversation }: { conversation: StaffConversation }) {
  const { message: toast } = App.useApp()
  const messages = useConversationMessages(conversation.id)
  const reply = useReply(conversation.id)
  const { pending, submit: submitPending } = usePendingSends(reply.mutateAsync)
  const picker = useRef<HTMLInputElement>(null)

  const stored = useMemo(() => threadMessages(messages.data?.pages ?? []), [messages.data])
  const items = threadItems(stored, stillPending(pending, stored))
  useMarkReadWhileVisible(conversation, stored, messages.isSuccess)
  const thread = useThreadScroll(stored[0]?.id, items.at(-1)?.key)
  const { scroller, keepNewestInView } = thread

  const loadOlder = () => {
    if (!messages.hasNextPage || messages.isFetchingNextPage) return
    thread.anchorOlder()
    inBackground(messages.fetchNextPage())
  }

  const submit = (send: ChatSend, shown: Pick<PendingMessage, 'preview' | 'card'> = {}) => {
    thread.stickToBottom()
    return submitPending(send, shown)
  }

  const {
    text,
    setText,
    empty,
    submit: sendText,
  } = useComposerText((trimmed) =>
    inBackground(submit({ kind: 'text', clientId: newClientId(), text: trimmed })),
  )

  const sendPicture = async (file: File) => {
    let image: string
    try {
      image = await pictureDataUrl(file)
    } catch {
      inBackground(toast.error(TEXT.pictureFailed))
      return
    }
    await submit({ kind: 'image', clientId: newClientId(), image }, { preview: image })
  }

  return (
    <div className={styles.pane} data-testid="desk-pane" data-conversation-id={conversation.id}>
      <div className={styles.head}>
        <Typography.Text strong>{conversation.display || conversation.mobile}</Typography.Text>
        <Typography.Text type="secondary">{conversation.mobile}</Typography.Text>
        <Typography.Text type="secondary" className={styles.userId}>
          ID {conversation.userId}
        </Typography.Text>
      </div>
      <div
        ref={scroller}
        className={styles.thread}
        onScroll={thread.onScroll}
        data-testid="desk-thread"
      >
        {messages.isPending ? (
          <div className={styles.loading}>
            <Spin />
          </div>
        ) : (
          <>
            <div className={styles.edge}>
              {stored.length === 0 && pending.length === 0 ? (
                TEXT.noMessages
              ) : messages.hasNextPage ? (
                <Button size="small" type="link" onClick={loadOlder}>
                  {TEXT.older}
                </Button>
              ) : (
                TEXT.noOlder
              )}
            </div>
            <ol className={styles.list}>
              {items.map((entry) => {
                switch (entry.type) {
                  case 'time':
                    return (
                      <li key={entry.key} className={styles.time}>
                        <ChatTimeLine at={entry.at} yesterday={TEXT.yesterday} />
                      </li>
                    )
                  case 'message':
                    return (
                      <Row
                        key={entry.key}
                        conversation={conversation}
                        mine={entry.message.from === 'agent'}
                        testId="desk-message"
                      >
                        <Body message={entry.message} onImageLoad={keepNewestInView} />
                      </Row>
                    )
                  case 'pending':
                    return (
                      <Row
                        key={entry.key}
                        conversation={conversation}
                        mine
                        testId="desk-pending"
                        state={entry.pending.state}
                      >
                        {entry.pending.state === 'failed' ? (
                          <Button
                            size="small"
                            danger
                            onClick={() => inBackground(submit(entry.pending.send, entry.pending))}
                          >
                            {TEXT.failed} · {TEXT.retry}
                          </Button>
                        ) : (
                          <Spin size="small" />
                        )}
                        <Body
                          message={pendingAsMessage(entry.pending, conversation.id)}
                          onImageLoad={keepNewestInView}
                        />
                      </Row>
                    )
                }
              })}
            </ol>
          </>
        )}
      </div>
      <div className={styles.composer}>
        <Input.TextArea
          value={text}
          onChange={(event) => setText(event.target.value)}
          onPressEnter={(event) => {
            if (event.shiftKey || event.nativeEvent.isComposing) return
            event.preventDefault()
            sendText()
          }}
          placeholder={TEXT.placeholder}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={CHAT_TEXT_MAX}
          data-testid="desk-input"
        />
        <div className={styles.actions}>
          <Button onClick={() => picker.current?.click()} data-testid="desk-picture">
            {TEXT.picture}
          </Button>
          <ChatPictureInput
            inputRef={picker}
            testId="desk-picture-input"
            onPicture={(file) => inBackground(sendPicture(file))}
          />
          <Button type="primary" onClick={sendText} disabled={empty} data-testid="desk-send">
            {TEXT.send}
          </Button>
        </div>
      </div>
    </div>
  )
}

/** A pending send drawn like the stored message it will become. */
function pendingAsMessage(p: PendingMessage, conversationId: number): ChatMessage {
  return {
    id: 0,
    conversationId,
    from: 'agent',
    kind: p.send.kind,
    text: p.send.kind === 'text' ? p.send.text : undefined,
    imageUrl: p.preview,
    card: p.card,
    clientId: p.clientId,
    createdAt: p.createdAt,
  }
}

function Row({
  conversation,
  mine,
  testId,
  state,
  children,
}: {
  conversation: StaffConversation
  mine: boolean
  testId: string
  state?: string
  children: React.ReactNode
}) {
  return (
    <ChatRow
      from={mine ? 'agent' : 'user'}
      mine={mine}
      initial={
        mine ? TEXT.agent.slice(0, 1) : (conversation.display || conversation.mobile).slice(0, 1)
      }
      testId={testId}
      state={state}
    >
      {children}
    </ChatRow>
  )
}

function Body({ message, onImageLoad }: { message: ChatMessage; onImageLoad: () => void }) {
  const mine = message.from === 'agent'
  switch (message.kind) {
    case 'text':
      return <ChatTextBubble mine={mine}>{message.text}</ChatTextBubble>
    case 'image':
      return message.imageUrl ? (
        <Image
          src={chatImageSrc(message.imageUrl, STAFF_BASE)}
          width={160}
          className={styles.picture}
          onLoad={onImageLoad}
          data-testid="desk-image"
        />
      ) : null
    case 'card':
      return message.card ? <CardLink card={message.card} /> : null
  }
}

/** An item's card opens the item in the shop, in a new tab (the desk stays as it is). */
function CardLink({ card }: { card: ChatCard }) {
  return (
    <ChatCardView
      card={card}
      kindLabel={card.kind === 'lot' ? TEXT.cardLot : TEXT.cardMall}
      onOpen={() => window.open(card.link, '_blank', 'noopener')}
    />
  )
}

/** The collector's messages are read while the conversation is open and the desk is on screen. */
function useMarkReadWhileVisible(
  conversation: StaffConversation,
  stored: readonly ChatMessage[],
  loaded: boolean,
): void {
  const { mutate } = useMarkConversationRead()
  const marked = useRef<number | null>(null)
  const lastUser = stored.reduce((max, m) => (m.from === 'user' && m.id > max ? m.id : max), 0)
  const unread = conversation.unread
  useEffect(() => {
    if (!loaded) return
    const mark = () => {
      if (document.visibilityState !== 'visible') return
      if (marked.current === lastUser && unread === 0) return
      marked.current = lastUser
      mutate(conversation.id)
    }
    mark()
    document.addEventListener('visibilitychange', mark)
    return () => document.removeEventListener('visibilitychange', mark)
  }, [conversation.id, lastUser, loaded, mutate, unread])
}
