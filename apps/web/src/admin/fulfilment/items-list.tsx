import type { PickItem } from '@numisma/contracts/staff-fulfilment'
import { Tag, Typography } from 'antd'
import styles from './items-list.module.css'
import { itemNumber, itemSpecial } from './format'
import { FULFIL_TEXT as T } from './texts'

/** A shipment's or booking's items in a table cell: title, special and number, grade and certificate. */
export function ItemsList({ items }: { items: readonly PickItem[] }) {
  return (
    <ul className={styles.items}>
      {items.map((item) => (
        <li key={item.orderId} className={styles.item}>
          <Typography.Text className={styles.title} ellipsis={{ tooltip: item.title }}>
            {item.title}
          </Typography.Text>
          <span className={styles.meta}>
            <Typography.Text type="secondary">
              {[itemSpecial(item, T), itemNumber(item, T)].filter(Boolean).join(' ')}
            </Typography.Text>
            {item.quantity > 1 && <Typography.Text>{T.quantity(item.quantity)}</Typography.Text>}
            {item.grade !== '' && <Tag className={styles.tag}>{item.grade}</Tag>}
            {item.certNo !== null && (
              <Tag color="gold" className={styles.tag}>
                {T.cert(item.gradingService, item.certNo)}
              </Tag>
            )}
          </span>
        </li>
      ))}
    </ul>
  )
}
