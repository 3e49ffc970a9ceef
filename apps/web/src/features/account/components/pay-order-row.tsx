import type { Order } from '@numisma/contracts/orders'
import { Checkbox } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { ItemImage } from '../../../components/item-image'
import { Price } from '../../../components/price'
import styles from './pay-order-row.module.css'

/**
 * A pending order on the payment screen: a tick to include it, its first item's picture, its items
 * (a mall order may hold several units, rarely several items), the fee of a won lot and its total.
 */
export function PayOrderRow({
  order,
  checked,
  onToggle,
}: {
  order: Order
  checked: boolean
  onToggle: (checked: boolean) => void
}) {
  const { t } = useTranslation()
  const [first] = order.items
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0)
  return (
    <div className={styles.row} data-testid="pay-order" data-order-id={order.id}>
      <Checkbox
        block
        className={styles.check}
        checked={checked}
        onChange={onToggle}
        data-testid="pay-order-check"
      >
        <span className={styles.content}>
          <span className={styles.media}>
            <ItemImage src={first?.image ?? ''} alt="" />
          </span>
          <span className={styles.info}>
            <span className={styles.head}>
              <span className={styles.kind}>{t(`orders.kind.${order.kind}`)}</span>
              <span className={styles.number}>{t('orders.number', { id: order.id })}</span>
            </span>
            <span className={styles.title}>{order.items.map((item) => item.title).join('、')}</span>
            <span className={styles.meta}>
              <span className={styles.detail}>
                {order.kind === 'mall'
                  ? t('pay.units', { count: units })
                  : order.fee > 0
                    ? t('pay.withFee')
                    : null}
              </span>
              <Price fen={order.total} size="sm" />
            </span>
          </span>
        </span>
      </Checkbox>
    </div>
  )
}
