import { Skeleton } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { Section } from '../../../components/section'
import { useCompanyBanks } from '../../../lib/finance/company-banks'
import { orderIdsParam, parseOrderIds } from '../../../lib/finance/order-ids'
import { BankAccountCard } from '../components/bank-account-card'
import { BankOrdersNote } from '../components/bank-orders-note'
import { BankRemittanceList } from '../components/bank-remittance-list'
import styles from './bank-pages.module.css'

/**
 * /account/bankAddress?orderIds=: the company's receiving accounts (spec §2), each leading to its
 * detail; the orders a transfer is for ride along; below, the notices I have sent and their status.
 */
export function BankAddressPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const orderIds = parseOrderIds(params.get('orderIds'))
  const banks = useCompanyBanks()
  const orders = orderIdsParam(orderIds)

  return (
    <PageFrame bodyClassName={styles.body}>
      <BankOrdersNote orderIds={orderIds} />
      <Section title={t('bank.accounts')}>
        <p className={styles.intro}>{t('bank.intro')}</p>
        {banks.data ? (
          banks.data.length === 0 ? (
            <EmptyState description={t('bank.empty')} />
          ) : (
            <div className={styles.banks} data-testid="company-banks">
              {banks.data.map((bank) => (
                <BankAccountCard
                  key={bank.id}
                  bank={bank}
                  to={`/account/bankAddressDetail?id=${bank.id}${orders ? `&${orders}` : ''}`}
                />
              ))}
            </div>
          )
        ) : banks.isError ? (
          <LoadFailed onRetry={() => banks.refetch()} />
        ) : (
          <Skeleton.Paragraph lineCount={5} animated />
        )}
      </Section>
      <BankRemittanceList />
    </PageFrame>
  )
}
