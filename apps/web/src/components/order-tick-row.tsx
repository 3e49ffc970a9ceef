import type { ReactNode } from 'react'
import type { Order } from '@numisma/contracts/orders'
import { Checkbox } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { ItemImage } from './item-image'
import { Price } from './price'
import styles from './order-tick-row.module.css'

/**
 * An order to tick — on the payment screen, the delivery screens, the counter booking: its first
 * item's picture, its titles, its total, and a note below (units or fee, storage so far, an export
 * ban, when it is due). `testId` names the row (`{testId}`) and its tick (`{testId}-check`).
 */
export function OrderTickRow({
  order,
  checked,
  onToggle,
  note,
  testId,
}: {
  order: Order
  checked: boolean
  onToggle: (checked: boolean) => void
  note?: ReactNode
  testId: string
}) {
  const { t } = useTranslation()
  const [first] = order.items
  return (
    <div className={styles.row} data-testid={testId} data-order-id={order.id}>
      <Checkbox
        block
        className={styles.check}
        checked={checked}
        onChange={onToggle}
        data-testid={`${testId}-check`}
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
              <span className={styles.note}>{note}</span>
              <Price fen={order.total} size="sm" />
            </span>
          </span>
        </span>
      </Checkbox>
    </div>
  )
}
