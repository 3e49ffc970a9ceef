import { useEffect, useState } from 'react'
import { formatFen } from '@numisma/contracts/money'
import { Button, DotLoading } from 'antd-mobile'
import { CheckCircleFill, ClockCircleFill, CloseCircleFill } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { inBackground } from '../../../lib/background'
import { PAYMENT_POLL_WINDOW_MS } from '../../../lib/payment/get-payment'
import { useRecharge } from '../../../lib/payment/get-recharge'
import styles from './recharge-result.module.css'

/**
 * What became of a recharge, as the server knows it, when the cashier sends the user back: asked
 * for again while pending (the deposit grows only when the platform's notice arrives), then shown
 * as pending with a refresh — never a success on the browser's word.
 */
export function RechargeResult({
  rechargeId,
  cancelled,
}: {
  rechargeId: number
  /** The cashier says its sheet was cancelled (`wxpay=cancel`): no notice to wait for. */
  cancelled: boolean
}) {
  const { t } = useTranslation()
  const [pollUntil, setPollUntil] = useState(() =>
    cancelled ? 0 : Date.now() + PAYMENT_POLL_WINDOW_MS,
  )
  const [now, setNow] = useState(() => Date.now())
  const recharge = useRecharge(rechargeId, pollUntil)
  const polling = now < pollUntil

  useEffect(() => {
    const timer = window.setTimeout(() => setNow(Date.now()), pollUntil - Date.now())
    return () => window.clearTimeout(timer)
  }, [pollUntil])

  const refresh = () => {
    const start = Date.now()
    setNow(start)
    setPollUntil(start + PAYMENT_POLL_WINDOW_MS)
    inBackground(recharge.refetch())
  }

  const data = recharge.data
  if (!data) {
    return recharge.isError ? null : (
      <div className={styles.card} data-testid="recharge-result" data-status="loading">
        <DotLoading color="primary" />
      </div>
    )
  }
  const amount = `¥${formatFen(data.amount)}`

  if (data.status === 'paid') {
    return (
      <div
        className={`${styles.card} ${styles.paid}`}
        data-testid="recharge-result"
        data-status="paid"
      >
        <CheckCircleFill className={styles.icon} />
        <div className={styles.text}>
          <b>{t('recharge.result.paid')}</b>
          <span>{t('recharge.result.paidNote', { amount })}</span>
        </div>
      </div>
    )
  }

  if (data.status === 'failed') {
    return (
      <div
        className={`${styles.card} ${styles.failed}`}
        data-testid="recharge-result"
        data-status="failed"
      >
        <CloseCircleFill className={styles.icon} />
        <div className={styles.text}>
          <b>{t('recharge.result.failed')}</b>
          <span>{t('recharge.result.failedNote', { amount })}</span>
        </div>
      </div>
    )
  }

  // Cancelled at the cashier (the phone's word): said so, and a refresh still asks the server.
  const phase = cancelled && !polling ? 'cancelled' : polling ? 'confirming' : 'pending'
  return (
    <div
      className={`${styles.card} ${styles.pending}`}
      data-testid="recharge-result"
      data-status={phase === 'cancelled' ? 'cancelled' : 'pending'}
    >
      <ClockCircleFill className={styles.icon} />
      <div className={styles.text}>
        <b>{t(`recharge.result.${phase}`)}</b>
        <span>{t(`recharge.result.${phase}Note`, { amount })}</span>
      </div>
      <Button
        size="small"
        fill="outline"
        loading={polling || recharge.isFetching}
        disabled={polling}
        onClick={refresh}
      >
        {t('recharge.result.refresh')}
      </Button>
    </div>
  )
}
