import type { ReactNode } from 'react'
import type { Shipment } from '@numisma/contracts/delivery'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { Price } from '../../../components/price'
import { FeeLines } from './fee-lines'
import { ItemLines } from './order-brief'
import styles from './shipment-card.module.css'

const time = (value: string) => formatChinaDate(value, 'YYYY-MM-DD HH:mm')

/**
 * One shipment: how it goes (express or pickup) and where it stands, its items, where it goes
 * (the address as it was applied for) or when it is picked up, the carrier and tracking number
 * once shipped, and — in `detailed` form — the fees and each step's time.
 */
export function ShipmentCard({
  shipment: s,
  detailed = false,
  actions,
}: {
  shipment: Shipment
  detailed?: boolean
  actions?: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <article
      className={styles.card}
      data-testid="shipment"
      data-shipment-id={s.id}
      data-status={s.status}
    >
      <header className={styles.head}>
        <Tag color="primary" fill="outline">
          {t(`delivery.shipmentMethod.${s.method}`)}
        </Tag>
        <span className={styles.number}>{t('delivery.shipmentNumber', { id: s.id })}</span>
        <span className={styles.status} data-status={s.status} data-testid="shipment-status">
          {t(`delivery.shipmentStatus.${s.method}.${s.status}`)}
        </span>
      </header>
      <ItemLines items={s.items} />
      <dl className={styles.facts}>
        {s.address ? (
          <Fact label={t('delivery.shipTo')}>
            {s.address.name} {s.address.mobile}
            <br />
            {[s.address.country, s.address.province, s.address.city].filter(Boolean).join(' ')}{' '}
            {s.address.detail}
          </Fact>
        ) : null}
        {s.pickupDate ? (
          <Fact label={t('delivery.pickupAt')}>
            {s.pickupDate} {s.pickupSlot}
          </Fact>
        ) : null}
        {s.trackingNo ? (
          <Fact label={t('delivery.tracking')}>
            <span data-testid="shipment-tracking">
              {s.carrier} {s.trackingNo}
            </span>
          </Fact>
        ) : null}
        {s.status === 'shipped' && s.autoCompleteAt ? (
          <Fact label={t('delivery.autoComplete')}>{time(s.autoCompleteAt)}</Fact>
        ) : null}
        {detailed ? (
          <>
            <Fact label={t('delivery.appliedAt')}>{time(s.appliedAt)}</Fact>
            {s.shippedAt ? <Fact label={t('delivery.shippedAt')}>{time(s.shippedAt)}</Fact> : null}
            {s.completedAt ? (
              <Fact label={t('delivery.completedAt')}>{time(s.completedAt)}</Fact>
            ) : null}
            {s.insured ? (
              <Fact label={t('delivery.declared')}>
                <Price fen={s.declaredValue} size="sm" muted />
              </Fact>
            ) : null}
          </>
        ) : (
          <Fact label={t('delivery.fees.total')}>
            <Price fen={s.total} size="sm" muted />
          </Fact>
        )}
      </dl>
      {detailed ? (
        <FeeLines
          shippingFee={s.method === 'express' ? s.shippingFee : null}
          insuranceFee={s.insured ? s.insuranceFee : null}
          storageFee={s.storageFee}
          total={s.total}
        />
      ) : null}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </article>
  )
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}
