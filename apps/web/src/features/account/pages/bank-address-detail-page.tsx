import type { CompanyBank } from '@numisma/contracts/account'
import { COOKIE } from '@numisma/contracts/cookies'
import { Button } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { Section } from '../../../components/section'
import { inBackground } from '../../../lib/background'
import { browserCookies } from '../../../lib/cookies'
import { useCompanyBanks } from '../../../lib/finance/company-banks'
import { orderIdsParam, parseOrderIds } from '../../../lib/finance/order-ids'
import { positiveId } from '../../../lib/query-param'
import { useUserStatistics } from '../api/get-user-statistics'
import { groupedAccountNo } from '../components/bank-account-card'
import { BankCopyButton } from '../components/bank-copy-button'
import { BankOrdersNote } from '../components/bank-orders-note'
import styles from './bank-address-detail-page.module.css'
import frame from './bank-pages.module.css'

/**
 * /account/bankAddressDetail?id=&orderIds=: one receiving account to copy into a banking app, how
 * to remit (the order numbers go in the transfer note), and on to the remittance notice.
 */
export function BankAddressDetailPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const id = positiveId(params.get('id'))
  const orderIds = parseOrderIds(params.get('orderIds'))
  const banks = useCompanyBanks()
  const bank = banks.data?.find((b) => b.id === id)

  if (bank) return <BankDetail bank={bank} orderIds={orderIds} />
  return (
    <PageFrame bodyClassName={frame.body}>
      {banks.isError ? (
        <LoadFailed onRetry={() => banks.refetch()} />
      ) : banks.data || id === undefined ? (
        <EmptyState description={t('bank.notFound')} />
      ) : (
        <DetailSkeleton />
      )}
    </PageFrame>
  )
}

function BankDetail({ bank, orderIds }: { bank: CompanyBank; orderIds: number[] }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { data: user } = useUserStatistics()
  const mobile = user?.mobile ?? browserCookies.get(COOKIE.mobile) ?? ''
  // What the collector types into the transfer's note, so staff can match the money.
  const note =
    orderIds.length > 0
      ? t('bank.noteOrders', { ids: orderIds.join('、') })
      : t('bank.noteMobile', { mobile })
  const orders = orderIdsParam(orderIds)
  const steps = t('bank.how', {
    returnObjects: true,
    note,
    orders: orderIds.length > 0 ? t('bank.howOrders') : '',
  })

  const footer = (
    <Button
      block
      color="primary"
      shape="rounded"
      className={styles.remitted}
      data-testid="bank-remitted"
      onClick={() =>
        inBackground(
          navigate(`/account/sendBankInfo?bankId=${bank.id}${orders ? `&${orders}` : ''}`),
        )
      }
    >
      {t('bank.remitted')}
    </Button>
  )

  return (
    <PageFrame bodyClassName={frame.body} footer={footer}>
      <BankOrdersNote orderIds={orderIds} />
      <section className={styles.card} data-testid="bank-detail" data-bank-id={bank.id}>
        <div className={styles.bankName}>{bank.bankName}</div>
        <div className={styles.branch}>{bank.branch}</div>
        <dl className={styles.rows}>
          <div className={styles.row}>
            <div className={styles.field}>
              <dt>{t('bank.accountName')}</dt>
              <dd data-testid="bank-account-name">{bank.accountName}</dd>
            </div>
            <BankCopyButton text={bank.accountName} testId="copy-account-name" onDark />
          </div>
          <div className={styles.row}>
            <div className={styles.field}>
              <dt>{t('bank.accountNo')}</dt>
              <dd className={styles.accountNo} data-testid="bank-account-no">
                {groupedAccountNo(bank.accountNo)}
              </dd>
            </div>
            <BankCopyButton text={bank.accountNo} testId="copy-account-no" onDark />
          </div>
        </dl>
      </section>
      <Section title={t('bank.howTitle')}>
        <div className={styles.note}>
          <span className={styles.noteLabel}>{t('bank.noteLabel')}</span>
          <span className={styles.noteText} data-testid="bank-transfer-note">
            {note}
          </span>
          <BankCopyButton text={note} testId="copy-note" />
        </div>
        <ol className={styles.steps}>
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Section>
    </PageFrame>
  )
}
