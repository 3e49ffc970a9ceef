import { useEffect, useState } from 'react'
import type { Payment } from '@numisma/contracts/payment'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Button, Result } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageMetaContext, usePageMeta } from '../../../components/page-meta-context'
import { PageLoading } from '../../../components/page-loading'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { PAYMENT_POLL_WINDOW_MS, usePayment } from '../../../lib/payment/get-payment'
import { positiveId } from '../../../lib/query-param'
import styles from './pay-suc-page.module.css'

/**
 * /account/paySuc?paymentId=: the outcome of a payment as the server knows it. A balance payment
 * arrives paid; a messaging-app payment is paid only once the platform's notice has reached the
 * server, so a pending one is asked for again for a while, then shown as pending with a refresh —
 * never called a success on the browser's word.
 */
export function PaySucPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const paymentId = positiveId(params.get('paymentId'))
  if (paymentId === undefined) {
    return (
      <PageFrame>
        <EmptyState description={t('paySuc.notFound')} />
      </PageFrame>
    )
  }
  // The sandbox cashier says how its sheet ended (`wxpay=cancel`): only a hint — the server's
  // word decides — but a payer who cancelled is not kept waiting for a notice that won't come.
  return <PaymentOutcome paymentId={paymentId} cancelled={params.get('wxpay') === 'cancel'} />
}

function PaymentOutcome({ paymentId, cancelled }: { paymentId: number; cancelled: boolean }) {
  const { t } = useTranslation()
  const meta = usePageMeta()
  const [pollUntil, setPollUntil] = useState(() =>
    cancelled ? 0 : Date.now() + PAYMENT_POLL_WINDOW_MS,
  )
  const [now, setNow] = useState(() => Date.now())
  const payment = usePayment(paymentId, pollUntil)
  const polling = now < pollUntil

  // The moment polling ends the page says so (pending, with a refresh) rather than spinning on.
  useEffect(() => {
    const timer = window.setTimeout(() => setNow(Date.now()), pollUntil - Date.now())
    return () => window.clearTimeout(timer)
  }, [pollUntil])

  const refresh = () => {
    const start = Date.now()
    setNow(start)
    setPollUntil(start + PAYMENT_POLL_WINDOW_MS)
    inBackground(payment.refetch())
  }

  // The route is titled 支付成功 (spec §2); until the server says paid, the bar says 支付结果.
  const title = t('paySuc.resultTitle')
  const shown =
    payment.data?.status === 'paid' ? meta : { ...meta, title: { zh: title, en: title } }

  return (
    <PageMetaContext.Provider value={shown}>
      <PageFrame bodyClassName={styles.body}>
        {payment.data ? (
          <Outcome
            payment={payment.data}
            polling={polling}
            cancelled={cancelled && !polling}
            refreshing={payment.isFetching}
            onRefresh={refresh}
          />
        ) : payment.isError ? (
          <LoadFailed onRetry={() => payment.refetch()} />
        ) : (
          <PageLoading />
        )}
      </PageFrame>
    </PageMetaContext.Provider>
  )
}

function Outcome({
  payment,
  polling,
  cancelled,
  refreshing,
  onRefresh,
}: {
  payment: Payment
  polling: boolean
  cancelled: boolean
  refreshing: boolean
  onRefresh: () => void
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const go = (to: string) => () => inBackground(navigate(to, { replace: true }))
  const payAgain = `/account/pay?orderIds=${payment.orderIds.join(',')}`

  const summary = (
    <dl className={styles.facts}>
      <div className={styles.fact}>
        <dt>{t('paySuc.amount')}</dt>
        <dd data-testid="pay-suc-amount" data-fen={payment.amount}>
          <Price fen={payment.amount} size="md" />
        </dd>
      </div>
      <div className={styles.fact}>
        <dt>{t('paySuc.method')}</dt>
        <dd>{t(`pay.method.${payment.method}`)}</dd>
      </div>
      <div className={styles.fact}>
        <dt>{t('paySuc.orders')}</dt>
        <dd>{t('paySuc.orderCount', { count: payment.orderIds.length })}</dd>
      </div>
      {payment.credited ? (
        <div className={styles.fact}>
          <dt>{t('paySuc.credited')}</dt>
          <dd data-testid="pay-suc-credited">
            <Price fen={payment.credited} size="sm" muted />
          </dd>
        </div>
      ) : null}
      <div className={styles.fact}>
        <dt>{t(payment.paidAt ? 'paySuc.paidAt' : 'paySuc.createdAt')}</dt>
        <dd>{formatChinaDate(payment.paidAt ?? payment.createdAt, 'YYYY-MM-DD HH:mm:ss')}</dd>
      </div>
    </dl>
  )

  if (payment.status === 'paid') {
    return (
      <div className={styles.content} data-testid="pay-suc" data-status="paid">
        <Result status="success" title={t('paySuc.paid')} description={t('paySuc.paidNote')} />
        {summary}
        <div className={styles.actions}>
          <Button
            color="primary"
            shape="rounded"
            block
            data-testid="pay-suc-orders"
            onClick={go('/order/list?tab=ship')}
          >
            {t('paySuc.toOrders')}
          </Button>
          <Button block shape="rounded" fill="outline" data-testid="pay-suc-home" onClick={go('/')}>
            {t('common.backHome')}
          </Button>
        </div>
      </div>
    )
  }

  if (payment.status === 'failed') {
    return (
      <div className={styles.content} data-testid="pay-suc" data-status="failed">
        <Result status="error" title={t('paySuc.failed')} description={t('paySuc.failedNote')} />
        {summary}
        <div className={styles.actions}>
          <Button color="primary" shape="rounded" block onClick={go(payAgain)}>
            {t('paySuc.payAgain')}
          </Button>
          <Button block shape="rounded" fill="outline" onClick={go('/order/list?tab=pay')}>
            {t('paySuc.toPending')}
          </Button>
        </div>
      </div>
    )
  }

  if (cancelled) {
    return (
      <div className={styles.content} data-testid="pay-suc" data-status="cancelled">
        <Result
          status="warning"
          title={t('paySuc.cancelled')}
          description={t('paySuc.cancelledNote')}
        />
        {summary}
        <div className={styles.actions}>
          <Button color="primary" shape="rounded" block onClick={go(payAgain)}>
            {t('paySuc.payAgain')}
          </Button>
          <Button block shape="rounded" fill="outline" loading={refreshing} onClick={onRefresh}>
            {t('paySuc.paidAnyway')}
          </Button>
        </div>
      </div>
    )
  }

  return (
    <div className={styles.content} data-testid="pay-suc" data-status="pending">
      <Result
        status="waiting"
        title={t(polling ? 'paySuc.confirming' : 'paySuc.pending')}
        description={t(polling ? 'paySuc.confirmingNote' : 'paySuc.pendingNote')}
      />
      {summary}
      <div className={styles.actions}>
        <Button
          color="primary"
          shape="rounded"
          block
          loading={refreshing || polling}
          disabled={polling}
          data-testid="pay-suc-refresh"
          onClick={onRefresh}
        >
          {t('paySuc.refresh')}
        </Button>
        <Button block shape="rounded" fill="outline" onClick={go('/order/list?tab=pay')}>
          {t('paySuc.toPending')}
        </Button>
      </div>
    </div>
  )
}
