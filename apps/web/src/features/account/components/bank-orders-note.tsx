import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { useTranslation } from '../../../lib/i18n'
import { remittanceDeadline } from '../../../lib/finance/remittance-deadline'
import { useWaitPayStatistics } from '../../../lib/finance/wait-pay-statistics'
import { usePendingOrders } from '../../../lib/orders/get-pending-orders'
import styles from './bank-orders-note.module.css'

/**
 * The orders a transfer is for, what they come to and, for a mall order held for the transfer, by
 * when it must be reported (ADR 012 amendment: three days from choosing remittance), above the
 * bank screens.
 */
export function BankOrdersNote({ orderIds }: { orderIds: readonly number[] }) {
  const { t } = useTranslation()
  const due = useWaitPayStatistics(orderIds)
  const pending = usePendingOrders()
  if (orderIds.length === 0) return null
  const deadline = pending.data ? remittanceDeadline(pending.data, orderIds) : null
  return (
    <div className={styles.note} data-testid="bank-orders-note">
      <span>{t('bank.forOrders', { ids: orderIds.join('、') })}</span>
      {due.data ? (
        <b className={styles.total} data-testid="bank-orders-total" data-fen={due.data.total}>
          {t('bank.ordersTotal', { amount: `¥${formatFen(due.data.total)}` })}
        </b>
      ) : null}
      {deadline ? (
        <span className={styles.deadline} data-testid="bank-orders-deadline" data-due={deadline}>
          {t('bank.deadline', { time: formatChinaDate(deadline, 'YYYY-MM-DD HH:mm') })}
        </span>
      ) : null}
    </div>
  )
}
