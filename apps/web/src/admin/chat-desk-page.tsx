import type { StaffConversation } from '@numisma/contracts/chat'
import { Alert, Avatar, Badge, Button, Card, Empty, List, Result, Typography } from 'antd'
import { useState } from 'react'
import { inBackground } from '../lib/background'
import { timeLineParts } from '../lib/chat/thread'
import styles from './chat-desk-page.module.css'
import { ConversationPane } from './conversation-pane'
import { useConversations } from './staff-queries'
import { TEXT } from './texts'
import { useStaffChatLive } from './use-staff-chat-live'

/** The open conversation survives a reload (`/admin?c=<id>`). */
function initialConversation(): number | null {
  const id = Number(new URLSearchParams(window.location.search).get('c'))
  return Number.isInteger(id) && id > 0 ? id : null
}

/**
 * The chat desk (issue 11): the collectors' conversations, newest activity first with their
 * unread counts, beside the open one; both live over the staff chat socket.
 */
export function ChatDeskPage() {
  const conversations = useConversations()
  const connected = useStaffChatLive()
  const [openId, setOpenId] = useState(initialConversation)
  const list = conversations.data
  const open = list?.conversations.find((c) => c.id === openId) ?? null

  const choose = (id: number) => {
    setOpenId(id)
    const url = new URL(window.location.href)
    url.searchParams.set('c', String(id))
    window.history.replaceState(null, '', url)
  }

  return (
    <div className={styles.desk}>
      <Card
        className={styles.list}
        title={TEXT.conversations}
        extra={
          list && list.unreadConversations > 0 ? (
            <Typography.Text type="danger" data-testid="desk-unread-total">
              {TEXT.unreadTotal(list.unreadConversations, list.unreadMessages)}
            </Typography.Text>
          ) : null
        }
        size="small"
        styles={{ body: { padding: 0, overflowY: 'auto', flex: 1, minHeight: 0 } }}
      >
        {conversations.isError ? (
          <Result
            status="warning"
            title={TEXT.loadFailed}
            extra={
              <Button onClick={() => inBackground(conversations.refetch())}>{TEXT.reload}</Button>
            }
          />
        ) : (
          <List
            loading={conversations.isPending}
            dataSource={list?.conversations ?? []}
            loadMore={
              conversations.hasNextPage ? (
                <div className={styles.more}>
                  {list && list.unreadElsewhere > 0 ? (
                    <Typography.Text type="danger">
                      {TEXT.unreadElsewhere(list.unreadElsewhere)}
                    </Typography.Text>
                  ) : null}
                  <Button
                    loading={conversations.isFetchingNextPage}
                    onClick={() => inBackground(conversations.fetchNextPage())}
                    data-testid="desk-load-more"
                  >
                    {TEXT.loadMore}
                  </Button>
                </div>
              ) : null
            }
            locale={{ emptyText: <Empty description={TEXT.noConversations} /> }}
            data-testid="desk-conversations"
            renderItem={(c) => (
              <ConversationRow conversation={c} active={c.id === openId} onOpen={choose} />
            )}
          />
        )}
      </Card>
      <Card
        className={styles.pane}
        size="small"
        styles={{
          body: { padding: 0, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' },
        }}
      >
        {connected ? null : <Alert type="warning" banner message={TEXT.offline} />}
        {open ? (
          <ConversationPane key={open.id} conversation={open} />
        ) : (
          <div className={styles.placeholder}>
            <Empty description={TEXT.pickConversation} />
          </div>
        )}
      </Card>
    </div>
  )
}

function ConversationRow({
  conversation: c,
  active,
  onOpen,
}: {
  conversation: StaffConversation
  active: boolean
  onOpen: (id: number) => void
}) {
  const last = c.lastMessage
  const preview =
    last === null
      ? ''
      : last.kind === 'text'
        ? (last.text ?? '')
        : last.kind === 'image'
          ? TEXT.lastPicture
          : `${TEXT.lastCard} ${last.card?.title ?? ''}`
  const at = timeLineParts(c.updatedAt)
  return (
    <List.Item
      className={active ? `${styles.row} ${styles.active}` : styles.row}
      onClick={() => onOpen(c.id)}
      data-testid="desk-conversation"
      data-conversation-id={c.id}
      data-unread={c.unread}
    >
      <List.Item.Meta
        avatar={
          <Badge count={c.unread} size="small">
            <Avatar className={styles.avatar}>{(c.display || c.mobile).slice(0, 1)}</Avatar>
          </Badge>
        }
        title={
          <span className={styles.rowHead}>
            <span className={styles.name}>{c.display || c.mobile}</span>
            <Typography.Text type="secondary" className={styles.when}>
              {at.day === 'today' ? at.time : at.date.slice(5)}
            </Typography.Text>
          </span>
        }
        description={
          <span className={styles.rowBody}>
            <span className={styles.mobile}>{c.mobile}</span>
            <span className={styles.preview}>{preview}</span>
          </span>
        }
      />
    </List.Item>
  )
}
