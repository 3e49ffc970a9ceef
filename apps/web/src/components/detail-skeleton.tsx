import { Skeleton } from 'antd-mobile'
import { ItemCard, ItemDetail } from './item-detail'
import styles from './detail-skeleton.module.css'

/** The photo-and-card outline a lot or mall item page shows while it loads. */
export function DetailSkeleton() {
  return (
    <ItemDetail aria-busy="true">
      <Skeleton animated className={styles.gallery} />
      <ItemCard>
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={4} animated />
      </ItemCard>
    </ItemDetail>
  )
}
