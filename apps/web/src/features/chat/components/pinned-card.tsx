import type { ChatCard } from '@numisma/contracts/chat'
import { Button } from 'antd-mobile'
import { CloseOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { ChatCardView } from '../../../components/chat-card-view'
import styles from './pinned-card.module.css'

/** The item the chat was opened from, above the input until it is sent (发送商品) or put away. */
export function PinnedCard({
  card,
  onSend,
  onDismiss,
}: {
  card: ChatCard
  onSend: () => void
  onDismiss: () => void
}) {
  const { t } = useTranslation()
  return (
    <div className={styles.pinned} data-testid="chat-pinned-card">
      <span className={styles.label}>{t('chat.cardFrom')}</span>
      <div className={styles.body}>
        <ChatCardView
          card={card}
          kindLabel={card.kind === 'lot' ? t('chat.cardLot') : t('chat.cardMall')}
          className={styles.card}
        />
        <Button
          color="primary"
          fill="outline"
          size="small"
          className={styles.send}
          onClick={onSend}
          data-testid="chat-send-card"
        >
          {t('chat.sendCard')}
        </Button>
      </div>
      <button
        type="button"
        className={styles.close}
        aria-label={t('chat.dismiss')}
        onClick={onDismiss}
      >
        <CloseOutline />
      </button>
    </div>
  )
}
