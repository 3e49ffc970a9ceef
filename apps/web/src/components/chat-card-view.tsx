import type { ChatCard } from '@numisma/contracts/chat'
import { formatFen } from '@numisma/contracts/money'
import styles from './chat-card-view.module.css'

/**
 * An item's card in a chat (picture, title, subtitle, price), for the collector's /chat and the
 * staff desk alike: plain markup, so the desk's bundle does not pull the shop's UI kit for it.
 */
export function ChatCardView({
  card,
  kindLabel,
  onOpen,
  className,
}: {
  card: ChatCard
  kindLabel: string
  onOpen?: () => void
  className?: string
}) {
  const content = (
    <>
      {card.image === '' ? (
        <span className={styles.noImage} role="img" aria-label={card.title} />
      ) : (
        <img className={styles.image} src={card.image} alt={card.title} />
      )}
      <span className={styles.text}>
        <span className={styles.title}>{card.title}</span>
        {card.subtitle ? <span className={styles.subtitle}>{card.subtitle}</span> : null}
        <span className={styles.foot}>
          <span className={styles.price}>¥{formatFen(card.price)}</span>
          <span className={styles.kind}>{kindLabel}</span>
        </span>
      </span>
    </>
  )
  const classes = className ? `${styles.card} ${className}` : styles.card
  return onOpen ? (
    <button
      type="button"
      className={classes}
      onClick={onOpen}
      data-testid="chat-card"
      data-ref={card.ref}
    >
      {content}
    </button>
  ) : (
    <div className={classes} data-testid="chat-card" data-ref={card.ref}>
      {content}
    </div>
  )
}
