import { Price } from '../../../components/price'
import { useTranslation } from '../../../lib/i18n'
import styles from './fee-lines.module.css'

/**
 * What a delivery costs, line by line: shipping and insurance (express only; null hides the
 * line), the storage the orders have run up, and the total taken from the balance.
 */
export function FeeLines({
  shippingFee,
  insuranceFee,
  storageFee,
  total,
}: {
  shippingFee: number | null
  insuranceFee: number | null
  storageFee: number
  total: number
}) {
  const { t } = useTranslation()
  return (
    <dl className={styles.lines}>
      {shippingFee !== null ? (
        <Line label={t('delivery.fees.shipping')} fen={shippingFee} testId="fee-shipping" />
      ) : null}
      {insuranceFee !== null ? (
        <Line label={t('delivery.fees.insurance')} fen={insuranceFee} testId="fee-insurance" />
      ) : null}
      <Line label={t('delivery.fees.storage')} fen={storageFee} testId="fee-storage" />
      <div className={`${styles.line} ${styles.total}`}>
        <dt>{t('delivery.fees.total')}</dt>
        <dd data-testid="fee-total" data-fen={total}>
          <Price fen={total} size="md" />
        </dd>
      </div>
    </dl>
  )
}

function Line({ label, fen, testId }: { label: string; fen: number; testId: string }) {
  return (
    <div className={styles.line}>
      <dt>{label}</dt>
      <dd data-testid={testId} data-fen={fen}>
        <Price fen={fen} size="sm" muted />
      </dd>
    </div>
  )
}
