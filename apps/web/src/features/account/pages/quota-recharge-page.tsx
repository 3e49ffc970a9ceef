import { useRef } from 'react'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { formatFen } from '@numisma/contracts/money'
import { Button, Dialog } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { ApiError } from '../../../lib/api-client'
import { inBackground } from '../../../lib/background'
import { answered, nextAttempt, type Attempt } from '../../../lib/finance/attempt'
import { withdrawable } from '../../../lib/finance/withdrawable'
import { useCreateRecharge } from '../../../lib/payment/recharge'
import { useTransferFunds } from '../../../lib/payment/transfer'
import {
  currentMessagingBridgeReady,
  payInMessagingApp,
  sandboxCashierUrl,
} from '../../../lib/payment/wechat-pay'
import { positiveId } from '../../../lib/query-param'
import { safeRedirect } from '../../../lib/redirect'
import { showSuccess, showToast } from '../../../lib/toast'
import { useUserStatistics } from '../api/get-user-statistics'
import { RechargeForm } from '../components/recharge-form'
import { RechargeResult } from '../components/recharge-result'
import { RechargeTransfer, type TransferDirection } from '../components/recharge-transfer'
import { RechargeSummary } from '../components/recharge-summary'
import styles from './quota-recharge-page.module.css'

/**
 * /account/quotaRecharge?redirect=: the deposit and the quota it gives, a recharge of the deposit
 * through the messaging platform (the fee said before paying), and moving money between balance
 * and deposit. `redirect` (a path of this app: the lot whose bid wanted more quota, the payment
 * that wanted more balance) is where 返回 leads, and where the cashier's way back keeps leading.
 */
export function QuotaRechargePage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const redirectParam = params.get('redirect')
  const redirect = redirectParam === null ? undefined : safeRedirect(redirectParam)
  const rechargeId = positiveId(params.get('rechargeId'))
  const back =
    redirect === undefined ? undefined : () => inBackground(navigate(redirect, { replace: true }))
  const user = useUserStatistics()
  const recharge = useCreateRecharge()
  const transfer = useTransferFunds()
  // One key per attempt (lib/finance/attempt.ts): a retry after no answer is replayed.
  const rechargeAttempt = useRef<Attempt | null>(null)
  const transferAttempt = useRef<Attempt | null>(null)

  const here = (extra: Record<string, string> = {}) => {
    const query = new URLSearchParams(extra)
    if (redirect !== undefined) query.set('redirect', redirect)
    const text = query.toString()
    return `/account/quotaRecharge${text ? `?${text}` : ''}`
  }

  const pay = async (amount: number) => {
    const current = nextAttempt(rechargeAttempt.current, { amount }, randomUuid)
    rechargeAttempt.current = current
    try {
      const order = await recharge.mutateAsync({ amount, idempotencyKey: current.key })
      rechargeAttempt.current = null
      if (!order.payRequest) {
        showToast(t('recharge.noPayRequest'))
        return
      }
      const back = here({ rechargeId: String(order.rechargeId) })
      const bridge = await currentMessagingBridgeReady()
      if (bridge) {
        const outcome = await payInMessagingApp(bridge, order.payRequest)
        if (outcome === 'cancel') showToast(t('pay.cancelled'))
        // Whatever the phone says, the page asks the server what became of the recharge.
        await navigate(back, { replace: true })
        return
      }
      window.location.assign(sandboxCashierUrl(order.payRequest, back))
    } catch (error) {
      // request() toasted the server's message or 'failed to get fee'.
      if (answered(error)) rechargeAttempt.current = null
    }
  }

  const move = async (direction: TransferDirection, amount: number): Promise<boolean> => {
    if (!user.data) return false
    const signed = direction === 'toDeposit' ? amount : -amount
    const current = nextAttempt(transferAttempt.current, { amount: signed }, randomUuid)
    transferAttempt.current = current
    try {
      await transfer.mutateAsync({
        userId: user.data.userId,
        amount: signed,
        idempotencyKey: current.key,
      })
      transferAttempt.current = null
      showSuccess(t('recharge.transferred'))
      return true
    } catch (error) {
      if (answered(error)) transferAttempt.current = null
      await showTransferRefusal(error)
      return false
    }
  }

  const showTransferRefusal = async (error: unknown) => {
    if (!(error instanceof ApiError)) {
      showToast(t('recharge.transferFailed'))
      return
    }
    if (error.code === 'OFFLINE' || error.code === 'ABORTED') return
    const free = error.details?.free
    if (error.code === 'DEPOSIT_IN_USE' && typeof free === 'number') {
      await Dialog.alert({
        title: t('recharge.depositInUseTitle'),
        content: t('recharge.depositInUse', { amount: `¥${formatFen(free)}` }),
        confirmText: t('common.confirm'),
      })
      return
    }
    showToast(error.message || t('recharge.transferFailed'))
  }

  return (
    <PageFrame bodyClassName={styles.body}>
      <div className={styles.content} data-testid="quota-recharge">
        {redirect !== undefined ? (
          <div className={styles.back}>
            <span>{t('recharge.backNote')}</span>
            <Button
              size="mini"
              color="primary"
              fill="outline"
              data-testid="recharge-back"
              onClick={back}
            >
              {t('recharge.back')}
            </Button>
          </div>
        ) : null}
        {rechargeId !== undefined ? (
          <RechargeResult
            key={rechargeId}
            rechargeId={rechargeId}
            cancelled={params.get('wxpay') === 'cancel'}
          />
        ) : null}
        {user.data ? (
          <>
            <RechargeSummary user={user.data} />
            <RechargeForm
              multiplier={user.data.deposit > 0 ? user.data.quota / user.data.deposit : undefined}
              busy={recharge.isPending}
              onPay={(amount) => inBackground(pay(amount))}
            />
            <RechargeTransfer
              balance={user.data.balance}
              freeDeposit={withdrawable(user.data).deposit}
              busy={transfer.isPending}
              onMove={move}
            />
            <p className={styles.note}>{t('recharge.note')}</p>
          </>
        ) : user.isError ? (
          <LoadFailed onRetry={() => user.refetch()} />
        ) : (
          <PageLoading />
        )}
      </div>
    </PageFrame>
  )
}
