import { useState } from 'react'
import type { Remittance } from '@numisma/contracts/account'
import { Button, Result } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageActions } from '../../../components/page-actions'
import { PageFrame } from '../../../components/page-frame'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { useCompanyBanks } from '../../../lib/finance/company-banks'
import { parseOrderIds } from '../../../lib/finance/order-ids'
import { positiveId } from '../../../lib/query-param'
import { BankOrdersNote } from '../components/bank-orders-note'
import { BankRemittanceForm } from '../components/bank-remittance-form'
import { BankRemittanceList } from '../components/bank-remittance-list'
import styles from './send-bank-info-page.module.css'
import frame from './bank-pages.module.css'

/**
 * /account/sendBankInfo?orderIds=&bankId=: the remittance notice (spec §7 POST
 * /user/finance/@remittance). Once sent, the page says what happens next and lists my notices.
 */
export function SendBankInfoPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const orderIds = parseOrderIds(params.get('orderIds'))
  const bankId = positiveId(params.get('bankId'))
  const banks = useCompanyBanks()
  const [sent, setSent] = useState<Remittance | null>(null)

  if (sent) return <NoticeSent notice={sent} />
  return (
    <PageFrame bodyClassName={frame.body}>
      <BankOrdersNote orderIds={orderIds} />
      {banks.data ? (
        banks.data.length === 0 ? (
          <EmptyState description={t('bank.empty')} />
        ) : (
          <BankRemittanceForm
            banks={banks.data}
            bankId={bankId}
            orderIds={orderIds}
            onSent={setSent}
          />
        )
      ) : banks.isError ? (
        <LoadFailed onRetry={() => banks.refetch()} />
      ) : (
        <DetailSkeleton />
      )}
    </PageFrame>
  )
}

function NoticeSent({ notice }: { notice: Remittance }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const forOrders = notice.orderIds.length > 0
  return (
    <PageFrame bodyClassName={frame.body}>
      <Result
        className={styles.result}
        status="success"
        title={t('remit.submitted')}
        description={
          <span className={styles.description}>
            <Price fen={notice.amount} size="lg" />
            <span>
              {t('remit.submittedNote', { orders: forOrders ? t('remit.submittedOrders') : '' })}
            </span>
          </span>
        }
        data-testid="remittance-sent"
      />
      <BankRemittanceList />
      <PageActions>
        {forOrders ? (
          <Button
            block
            color="primary"
            shape="rounded"
            onClick={() => inBackground(navigate('/order/list', { replace: true }))}
          >
            {t('remit.toOrders')}
          </Button>
        ) : null}
        <Button
          block
          shape="rounded"
          fill="outline"
          color="primary"
          onClick={() => inBackground(navigate('/ucenter', { replace: true }))}
        >
          {t('remit.toUcenter')}
        </Button>
      </PageActions>
    </PageFrame>
  )
}
