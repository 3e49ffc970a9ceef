import type { ReactNode } from 'react'
import type { Booking } from '@numisma/contracts/delivery'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { Price } from '../../../components/price'
import { ItemLines } from './order-brief'
import styles from './shipment-card.module.css'

/** One counter cash booking: its day and slot, status, items, the cash to bring, and actions. */
export function BookingCard({ booking: b, actions }: { booking: Booking; actions?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <article
      className={styles.card}
      data-testid="booking"
      data-booking-id={b.id}
      data-status={b.status}
    >
      <header className={styles.head}>
        <Tag color="primary" fill="outline">
          {t('delivery.methods.cash')}
        </Tag>
        <span className={styles.number}>{t('delivery.bookingNumber', { id: b.id })}</span>
        <span className={styles.status} data-status={b.status} data-testid="booking-status">
          {t(`delivery.bookingStatus.${b.status}`)}
        </span>
      </header>
      <ItemLines items={b.items} />
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{t('delivery.visitAt')}</dt>
          <dd data-testid="booking-when">
            {b.date} {b.slot}
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('delivery.cashTotal')}</dt>
          <dd>
            <Price fen={b.total} size="sm" />
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('delivery.bookedAt')}</dt>
          <dd>{formatChinaDate(b.createdAt, 'YYYY-MM-DD HH:mm')}</dd>
        </div>
      </dl>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </article>
  )
}
