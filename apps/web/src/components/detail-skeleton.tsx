import { Skeleton } from 'antd-mobile'
import styles from './detail-skeleton.module.css'
import item from './item-detail.module.css'

/** The photo-and-card outline a lot or mall item page shows while it loads (ItemDetail's box). */
export function DetailSkeleton() {
  return (
    <div className={item.detail} aria-busy="true">
      <Skeleton animated className={styles.gallery} />
      <div className={item.card}>
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={4} animated />
      </div>
    </div>
  )
}
