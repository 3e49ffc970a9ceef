import { formatFen } from '@numisma/contracts/money'
import { useTranslation } from 'react-i18next'
import { useWaitPayStatistics } from '../../../lib/finance/wait-pay-statistics'
import styles from './bank-orders-note.module.css'

/** The orders a transfer is for, and what they come to, above the bank screens. */
export function BankOrdersNote({ orderIds }: { orderIds: readonly number[] }) {
  const { t } = useTranslation()
  const due = useWaitPayStatistics(orderIds)
  if (orderIds.length === 0) return null
  return (
    <div className={styles.note} data-testid="bank-orders-note">
      <span>{t('bank.forOrders', { ids: orderIds.join('、') })}</span>
      {due.data ? (
        <b className={styles.total} data-testid="bank-orders-total" data-fen={due.data.total}>
          {t('bank.ordersTotal', { amount: `¥${formatFen(due.data.total)}` })}
        </b>
      ) : null}
    </div>
  )
}
