import type { Order, OrderItem } from '@numisma/contracts/orders'
import { useTranslation } from '../../../lib/i18n'
import { ItemImage } from '../../../components/item-image'
import { Price } from '../../../components/price'
import styles from './order-brief.module.css'

/** One order, or one shipment's items, in a line each: picture, title, quantity and price. */
export function OrderBrief({ order }: { order: Pick<Order, 'id' | 'items' | 'total'> }) {
  const { t } = useTranslation()
  return (
    <div className={styles.order} data-testid="order-brief" data-order-id={order.id}>
      <span className={styles.number}>{t('orders.number', { id: order.id })}</span>
      <ItemLines items={order.items} />
    </div>
  )
}

export function ItemLines({ items }: { items: readonly OrderItem[] }) {
  return (
    <>
      {items.map((item, index) => (
        <div key={`${item.productNo ?? item.lotId ?? ''}-${index}`} className={styles.item}>
          <span className={styles.media}>
            <ItemImage src={item.image} alt="" />
          </span>
          <span className={styles.title}>{item.title}</span>
          <span className={styles.price}>
            <Price fen={item.price} size="sm" muted />
            <span className={styles.quantity}>× {item.quantity}</span>
          </span>
        </div>
      ))}
    </>
  )
}
