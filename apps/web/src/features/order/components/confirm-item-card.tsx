import type { MallItemDetail } from '@numisma/contracts/catalog'
import { Link } from 'react-router'
import { GradeBadge } from '../../../components/grade-badge'
import { Price } from '../../../components/price'
import styles from './confirm-item-card.module.css'
import { ItemImage } from '../../../components/item-image'

/** The item being bought: photo, title, grade and unit price, linking back to its page. */
export function ConfirmItemCard({ item }: { item: MallItemDetail }) {
  return (
    <Link
      className={styles.card}
      to={`/productDetail?productNo=${encodeURIComponent(item.productNo)}`}
      data-testid="confirm-item"
      data-product-no={item.productNo}
    >
      <ItemImage className={styles.thumb} src={item.image} alt="" lazy={false} />
      <div className={styles.text}>
        <span className={styles.title}>{item.title}</span>
        <GradeBadge gradeCode={item.gradeCode} gradingService={item.gradingService} />
        <Price fen={item.price} size="sm" />
      </div>
    </Link>
  )
}
