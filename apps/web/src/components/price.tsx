import { formatFen } from '@numisma/contracts/money'
import styles from './price.module.css'

export interface PriceProps {
  /** Integer fen. */
  fen: number
  size?: 'sm' | 'md' | 'lg'
  /** Muted (a start price, a sold-out item) rather than the brand red. */
  muted?: boolean
  className?: string
}

/** ¥1,234.00 in the brand red: money is integer fen on the wire, yuan only on screen. */
export function Price({ fen, size = 'md', muted = false, className }: PriceProps) {
  const classes = [styles.price, styles[size], muted ? styles.muted : '', className ?? '']
  const [whole, cents] = formatFen(fen).split('.')
  return (
    <span className={classes.join(' ').trim()}>
      <span className={styles.symbol}>¥</span>
      <span>{whole}</span>
      <span className={styles.cents}>.{cents}</span>
    </span>
  )
}
