import type { Withdrawal } from '@numisma/contracts/account'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Skeleton, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { LoadFailed } from '../../../components/load-failed'
import { Price } from '../../../components/price'
import { Section } from '../../../components/section'
import { useWithdrawals } from '../../../lib/finance/withdrawals'
import styles from './withdraw-list.module.css'

const STATUS_COLOR = {
  requested: 'warning',
  paid: 'success',
  refused: 'danger',
} as const satisfies Record<Withdrawal['status'], string>

/** 提现记录: my requests, newest first, each with its status; a refused one with the reason. */
export function WithdrawList() {
  const { t } = useTranslation()
  const withdrawals = useWithdrawals()
  return (
    <Section title={t('withdraw.list')}>
      {withdrawals.data ? (
        withdrawals.data.length === 0 ? (
          <p className={styles.none}>{t('withdraw.empty')}</p>
        ) : (
          <ul className={styles.list} data-testid="withdraw-list">
            {withdrawals.data.map((w) => (
              <WithdrawalRow key={w.id} withdrawal={w} />
            ))}
          </ul>
        )
      ) : withdrawals.isError ? (
        <LoadFailed onRetry={() => withdrawals.refetch()} />
      ) : (
        <Skeleton.Paragraph lineCount={3} animated />
      )}
    </Section>
  )
}

function WithdrawalRow({ withdrawal: w }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation()
  return (
    <li className={styles.row} data-testid="withdrawal" data-status={w.status}>
      <div className={styles.line}>
        <span className={styles.amount}>
          <Price fen={w.amount} size="md" />
          <span className={styles.source}>{t(`withdraw.sources.${w.source}`)}</span>
        </span>
        <Tag color={STATUS_COLOR[w.status]} fill="outline" data-testid="withdrawal-status">
          {t(`withdraw.status.${w.status}`)}
        </Tag>
      </div>
      <div className={styles.meta}>
        {t('withdraw.to', { bank: w.bankName, accountNo: w.accountNo })} · {w.accountName}
      </div>
      {w.status === 'refused' && w.note ? (
        <div className={styles.refused}>{t('withdraw.refusedNote', { note: w.note })}</div>
      ) : null}
      <div className={styles.foot}>
        <span>{formatChinaDate(w.createdAt, 'YYYY-MM-DD HH:mm')}</span>
        {w.decidedAt ? (
          <span>
            {t('withdraw.decidedAt', { time: formatChinaDate(w.decidedAt, 'YYYY-MM-DD HH:mm') })}
          </span>
        ) : null}
      </div>
    </li>
  )
}
