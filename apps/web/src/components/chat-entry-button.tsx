import { MessageOutline } from 'antd-mobile-icons'
import { useTranslation } from '../lib/i18n'
import { useNavigate } from 'react-router'
import { inBackground } from '../lib/background'
import styles from './chat-entry-button.module.css'

/**
 * 客服 in an item page's bottom bar: opens /chat with the item, whose card the collector may send.
 * A guest reaches the sign-in guard of /chat.
 */
export function ChatEntryButton({ item }: { item: { lot: number } | { productNo: string } }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const query =
    'lot' in item ? `lot=${item.lot}` : `productNo=${encodeURIComponent(item.productNo)}`
  return (
    <button
      type="button"
      className={styles.button}
      data-testid="chat-entry"
      onClick={() => inBackground(navigate(`/chat?${query}`))}
    >
      <MessageOutline />
      <span>{t('chat.entry')}</span>
    </button>
  )
}
