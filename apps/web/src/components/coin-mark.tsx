import { Skeleton } from 'antd-mobile'
import styles from './coin-mark.module.css'

/** A category's icon as a coin (a note, a slab, a stamp by its style) with its mark on it. */
export function CoinMark({ mark, variant }: { mark: string; variant: string }) {
  const look = styles[variant]
  return (
    <span className={look ? `${styles.mark} ${look}` : styles.mark} aria-hidden="true">
      {mark}
    </span>
  )
}

export function CoinMarkSkeleton() {
  return <Skeleton animated className={`${styles.mark} ${styles.skeleton}`} />
}
