import type { CompanyBank } from '@numisma/contracts/account'
import { RightOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import styles from './bank-account-card.module.css'

/** A long account number in groups of four, as banks print them (copied without the spaces). */
export function groupedAccountNo(accountNo: string): string {
  return accountNo.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ')
}

/** One of the company's receiving accounts as a card that leads to its detail. */
export function BankAccountCard({ bank, to }: { bank: CompanyBank; to: string }) {
  const { t } = useTranslation()
  return (
    <Link to={to} className={styles.card} data-testid="company-bank" data-bank-id={bank.id}>
      <span className={styles.head}>
        <span className={styles.bankName}>{bank.bankName}</span>
        <RightOutline className={styles.arrow} />
      </span>
      <span className={styles.branch}>{bank.branch}</span>
      <span className={styles.row}>
        <span className={styles.label}>{t('bank.accountName')}</span>
        <span>{bank.accountName}</span>
      </span>
      <span className={styles.row}>
        <span className={styles.label}>{t('bank.accountNo')}</span>
        <span className={styles.accountNo}>{groupedAccountNo(bank.accountNo)}</span>
      </span>
    </Link>
  )
}
