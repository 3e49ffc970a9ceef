import type { CompanyBank, Remittance } from '@numisma/contracts/account'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { Skeleton, Tag } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { LoadFailed } from '../../../components/load-failed'
import { Price } from '../../../components/price'
import { Section } from '../../../components/section'
import { useCompanyBanks } from '../../../lib/finance/company-banks'
import { useRemittances } from '../../../lib/finance/remittances'
import styles from './bank-remittance-list.module.css'

const STATUS_COLOR = {
  submitted: 'warning',
  confirmed: 'success',
  rejected: 'danger',
} as const satisfies Record<Remittance['status'], string>

/** 我的汇款通知: each notice I sent with its status, a rejected one with the staff's reason. */
export function BankRemittanceList() {
  const { t } = useTranslation()
  const notices = useRemittances()
  const banks = useCompanyBanks()
  return (
    <Section title={t('bank.myNotices')}>
      {notices.data ? (
        notices.data.length === 0 ? (
          <p className={styles.none}>{t('bank.noNotices')}</p>
        ) : (
          <ul className={styles.list} data-testid="remittance-list">
            {notices.data.map((notice) => (
              <NoticeRow key={notice.id} notice={notice} banks={banks.data} />
            ))}
          </ul>
        )
      ) : notices.isError ? (
        <LoadFailed onRetry={() => notices.refetch()} />
      ) : (
        <Skeleton.Paragraph lineCount={3} animated />
      )}
    </Section>
  )
}

function NoticeRow({ notice, banks }: { notice: Remittance; banks: CompanyBank[] | undefined }) {
  const { t } = useTranslation()
  const bank = banks?.find((b) => b.id === notice.companyBankId)
  return (
    <li
      className={styles.row}
      data-testid="remittance"
      data-remittance-id={notice.id}
      data-status={notice.status}
    >
      <div className={styles.line}>
        <Price fen={notice.amount} size="md" />
        <Tag color={STATUS_COLOR[notice.status]} fill="outline" data-testid="remittance-status">
          {t(`remit.status.${notice.status}`)}
        </Tag>
      </div>
      <div className={styles.meta}>
        {t('remit.notice', {
          bank: bank?.bankName ?? notice.payerBank,
          date: notice.remittedOn,
        })}
        {' · '}
        {notice.payerName}
      </div>
      {notice.orderIds.length > 0 ? (
        <div className={styles.meta}>
          {t('bank.noteOrders', { ids: notice.orderIds.join('、') })}
        </div>
      ) : null}
      {notice.status === 'confirmed' && notice.amountReceived !== null ? (
        <div className={styles.meta} data-testid="remittance-received">
          {t('remit.received', { amount: `¥${formatFen(notice.amountReceived)}` })}
        </div>
      ) : null}
      {notice.status === 'rejected' && notice.note ? (
        <div className={styles.rejected}>{t('remit.rejectedNote', { note: notice.note })}</div>
      ) : null}
      <div className={styles.foot}>
        <span>{formatChinaDate(notice.createdAt, 'YYYY-MM-DD HH:mm')}</span>
        {/* The picture is served to signed calls only, so the list says it is there. */}
        {notice.receiptUrl ? <span className={styles.receipt}>{t('remit.hasReceipt')}</span> : null}
      </div>
    </li>
  )
}
