import type { ChatCard, ChatMessage, ChatSend } from '@numisma/contracts/chat'
import { COOKIE } from '@numisma/contracts/cookies'
import { Skeleton } from 'antd-mobile'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { ChatTimeLine } from '../../../components/chat-time-line'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { inBackground } from '../../../lib/background'
import { pictureDataUrl } from '../../../lib/chat/image'
import {
  newClientId,
  stillPending,
  threadItems,
  threadMessages,
  type PendingMessage,
} from '../../../lib/chat/thread'
import { usePendingSends } from '../../../lib/chat/use-pending-sends'
import { useThreadScroll } from '../../../lib/chat/use-thread-scroll'
import { getClientConfig } from '../../../lib/config'
import { browserCookies } from '../../../lib/cookies'
import { showToast } from '../../../lib/toast'
import {
  useChatConversation,
  useChatMessages,
  useMarkChatRead,
  useSendChatMessage,
} from '../api/chat-api'
import { useItemCard, type ItemRef } from '../api/get-item-card'
import { ChatComposer } from '../components/chat-composer'
import { MessageBubble, PendingBubble } from '../components/message-bubble'
import { PinnedCard } from '../components/pinned-card'
import { useChatLive } from '../hooks/use-chat-live'
import styles from './chat-page.module.css'

/** `?lot=<id>` or `?productNo=<no>`: the item the chat was opened from. */
export function itemRefOf(params: URLSearchParams): ItemRef | null {
  const lot = params.get('lot')
  if (lot && /^\d+$/.test(lot)) return { kind: 'lot', ref: lot }
  const productNo = params.get('productNo')
  return productNo ? { kind: 'mall', ref: productNo } : null
}

/** Near the top: the older page is fetched. */
const OLDER_PX = 48

/**
 * /chat: the collector's conversation with the house's agent (spec §3 chat widget: the user's id
 * and name from cookies, the agent as peer, an item's card when opened from one). History pages
 * back as it scrolls up, live messages arrive over the chat socket, sends show at once and say
 * when they failed (retried with the same clientId, so the server stores one).
 */
export function ChatPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const item = itemRefOf(params)
  const itemCard = useItemCard(item)
  const [cardDismissed, setCardDismissed] = useState(false)
  const conversation = useChatConversation()
  const messages = useChatMessages()
  const connected = useChatLive()
  const send = useSendChatMessage()
  const { pending, submit: submitPending } = usePendingSends(send.mutateAsync)

  const display = browserCookies.get(COOKIE.display) ?? ''
  const userId = browserCookies.get(COOKIE.userId) ?? ''
  const peerId = conversation.data?.peerId ?? getClientConfig().chat.agentId
  const initial = (display || t('chat.menu')).slice(0, 1)

  const stored = useMemo(() => threadMessages(messages.data?.pages ?? []), [messages.data])
  const waiting = stillPending(pending, stored)
  const items = threadItems(stored, waiting)
  useMarkReadWhileVisible(stored, messages.isSuccess)

  const thread = useThreadScroll(stored[0]?.id, items.at(-1)?.key)
  const { scroller, keepNewestInView } = thread

  const onScroll = () => {
    const el = thread.onScroll()
    if (el && el.scrollTop < OLDER_PX && messages.hasNextPage && !messages.isFetchingNextPage) {
      thread.anchorOlder()
      inBackground(messages.fetchNextPage())
    }
  }

  const submit = (message: ChatSend, shown: Pick<PendingMessage, 'preview' | 'card'> = {}) => {
    thread.stickToBottom()
    return submitPending(message, shown)
  }

  const sendPicture = async (file: File) => {
    let image: string
    try {
      image = await pictureDataUrl(file)
    } catch {
      showToast(t('chat.pictureFailed'))
      return
    }
    await submit({ kind: 'image', clientId: newClientId(), image }, { preview: image })
  }

  const sendCard = (card: ChatCard) => {
    setCardDismissed(true)
    inBackground(
      submit(
        { kind: 'card', clientId: newClientId(), card: { kind: card.kind, ref: card.ref } },
        { card },
      ),
    )
  }

  const openCard = (card: ChatCard) => inBackground(navigate(card.link))
  const pinned = itemCard.data && !cardDismissed ? itemCard.data : null

  return (
    <PageFrame
      bodyClassName={styles.body}
      footerClassName={styles.footer}
      footer={
        <>
          {pinned ? (
            <PinnedCard
              card={pinned}
              onSend={() => sendCard(pinned)}
              onDismiss={() => setCardDismissed(true)}
            />
          ) : null}
          <ChatComposer
            onText={(text) => inBackground(submit({ kind: 'text', clientId: newClientId(), text }))}
            onPicture={(file) => inBackground(sendPicture(file))}
          />
        </>
      }
    >
      {connected ? null : (
        <div className={styles.offline} role="status">
          {t('chat.offline')}
        </div>
      )}
      <div
        ref={scroller}
        className={styles.thread}
        onScroll={onScroll}
        data-testid="chat-thread"
        data-user-id={userId}
        data-peer-id={peerId}
      >
        {messages.isPending ? (
          <div className={styles.loading}>
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : messages.isError ? (
          <LoadFailed onRetry={() => messages.refetch()} />
        ) : (
          <>
            {stored.length > 0 ? (
              <p className={styles.edge}>
                {messages.hasNextPage ? t('chat.older') : t('chat.noOlder')}
              </p>
            ) : null}
            {items.length === 0 ? (
              <div className={styles.greeting} data-testid="chat-greeting">
                <span className={styles.greetingAvatar} aria-hidden>
                  {t('chat.agent').slice(0, 1)}
                </span>
                <p>{t('chat.greeting')}</p>
                <p className={styles.greetingHint}>{t('chat.greetingHint')}</p>
              </div>
            ) : null}
            <ol className={styles.list}>
              {items.map((entry) => {
                switch (entry.type) {
                  case 'time':
                    return (
                      <li key={entry.key} className={styles.time}>
                        <ChatTimeLine at={entry.at} yesterday={t('chat.yesterday')} />
                      </li>
                    )
                  case 'message':
                    return (
                      <MessageBubble
                        key={entry.key}
                        message={entry.message}
                        mine={entry.message.from === 'user'}
                        initial={initial}
                        onOpenCard={openCard}
                        onImageLoad={keepNewestInView}
                      />
                    )
                  case 'pending':
                    return (
                      <PendingBubble
                        key={entry.key}
                        pending={entry.pending}
                        card={entry.pending.card}
                        mine
                        initial={initial}
                        onOpenCard={openCard}
                        onImageLoad={keepNewestInView}
                        onRetry={() => inBackground(submit(entry.pending.send, entry.pending))}
                      />
                    )
                }
              })}
            </ol>
          </>
        )}
      </div>
    </PageFrame>
  )
}

/**
 * Marks the agent's messages read when the chat opens, and again as new ones arrive while the page
 * is on screen (a hidden tab leaves them unread until it is shown).
 */
function useMarkReadWhileVisible(stored: readonly ChatMessage[], loaded: boolean): void {
  const { mutate } = useMarkChatRead()
  const marked = useRef<number | null>(null)
  const lastAgent = stored.reduce((max, m) => (m.from === 'agent' && m.id > max ? m.id : max), 0)
  useEffect(() => {
    if (!loaded) return
    const mark = () => {
      if (document.visibilityState !== 'visible' || marked.current === lastAgent) return
      marked.current = lastAgent
      mutate()
    }
    mark()
    document.addEventListener('visibilitychange', mark)
    return () => document.removeEventListener('visibilitychange', mark)
  }, [lastAgent, loaded, mutate])
}
