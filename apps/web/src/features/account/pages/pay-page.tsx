import { useMemo, useRef, useState } from 'react'
import type { Order } from '@numisma/contracts/orders'
import type { PayMethod, PayRequest, PayResult } from '@numisma/contracts/payment'
import { errorText } from '@numisma/contracts/errors'
import { formatFen } from '@numisma/contracts/money'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button, Dialog, NoticeBar } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { CouponSelect } from '../../../components/coupon-select'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { DUE_FOOTER_FRAME, DueFooter } from '../../../components/due-footer'
import { Price } from '../../../components/price'
import { usePayPasswordSettings } from '../../../lib/account/pay-password'
import { inBackground } from '../../../lib/background'
import { getClientConfig } from '../../../lib/config'
import { answered, nextAttempt, type Attempt } from '../../../lib/finance/attempt'
import { orderIdsParam, parseOrderIds } from '../../../lib/finance/order-ids'
import { waitPayStatisticsQueryOptions } from '../../../lib/finance/wait-pay-statistics'
import type { CouponChoice } from '../../../lib/mall/buy'
import { useUsableCouponsForOrder } from '../../../lib/mall/coupons'
import { usePendingOrders } from '../../../lib/orders/get-pending-orders'
import { payDefaultError, useDoPay } from '../../../lib/payment/do-pay'
import { payErrorAction } from '../../../lib/payment/pay-error'
import {
  couponTarget,
  defaultMethod,
  initialSelection,
  missingOrders,
  payTotals,
} from '../../../lib/payment/pay-selection'
import {
  currentMessagingBridgeReady,
  messagingPayOffered,
  payInMessagingApp,
  sandboxCashierUrl,
} from '../../../lib/payment/wechat-pay'
import { currentInAppEnvironment } from '../../../lib/in-app/environment'
import { showToast } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import { PayMethodList } from '../components/pay-method-list'
import { PayOrderRow } from '../components/pay-order-row'
import { PayPasswordPopup, type PasswordPopupState } from '../../../components/pay-password-popup'
import styles from './pay-page.module.css'

/**
 * /account/pay?orderIds=1,2: pays pending orders — the ones ticked (pre-ticked from the link),
 * a coupon for a mall order that has none, the amounts from waitPayStatistics, and the method:
 * balance (payment password), messaging-app pay, or bank remittance.
 */
export function PayPage() {
  const [params] = useSearchParams()
  const wanted = useMemo(() => parseOrderIds(params.get('orderIds')), [params])
  const pending = usePendingOrders()
  if (pending.data) return <PayForm wanted={wanted} pending={pending.data} />
  return (
    <PageFrame bodyClassName={styles.body}>
      {pending.isError ? <LoadFailed onRetry={() => pending.refetch()} /> : <PageLoading />}
    </PageFrame>
  )
}

const PAY_SUCCESS_PATH = '/account/paySuc'

function PayForm({ wanted, pending }: { wanted: number[]; pending: Order[] }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const pay = useDoPay()
  const settings = usePayPasswordSettings()
  const [selected, setSelected] = useState(() => initialSelection(wanted, pending))
  const [couponChoice, setCouponChoice] = useState<CouponChoice>({ kind: 'none' })
  const [chosenMethod, setChosenMethod] = useState<PayMethod | null>(null)
  const [password, setPassword] = useState<{ open: boolean; state: PasswordPopupState }>({
    open: false,
    state: { kind: 'input' },
  })
  // Once paid (or handed to the cashier) the button stays busy while the page is left.
  const [leaving, setLeaving] = useState(false)
  // While a payment is on its way, this page's own reads rest: the payment refreshes the orders,
  // coupons and amounts, and asking the amounts of orders just paid would only be refused.
  const [held, setHeld] = useState(false)
  // The unanswered attempt's key (lib/finance/attempt.ts); refs, as a tap must see the last one.
  const attempt = useRef<Attempt | null>(null)
  const sending = useRef(false)

  // An order paid or cancelled meanwhile leaves the list, and the selection with it.
  const orders = pending.filter((order) => selected.includes(order.id))
  const orderIds = orders.map((order) => order.id)
  const missing = missingOrders(wanted, pending)
  const target = couponTarget(orders)
  const targetId = target.kind === 'order' ? target.order.id : undefined
  const coupons = useUsableCouponsForOrder(targetId, !held)
  const coupon =
    targetId !== undefined && couponChoice.kind === 'coupon'
      ? (coupons.data?.find((c) => c.userCouponId === couponChoice.id) ?? null)
      : null
  const stats = useQuery({
    ...waitPayStatisticsQueryOptions(orderIds),
    enabled: orderIds.length > 0 && !held,
    placeholderData: keepPreviousData,
  })
  const totals = stats.data && orderIds.length > 0 ? payTotals(stats.data, coupon) : undefined
  const wechatOffered = messagingPayOffered(
    currentInAppEnvironment() === 'messaging',
    getClientConfig().env,
  )
  const covers = totals?.balanceCovers ?? false
  const fallbackMethod = defaultMethod(covers, wechatOffered)
  const method =
    chosenMethod === null ||
    (chosenMethod === 'balance' && !covers) ||
    (chosenMethod === 'wechat' && !wechatOffered)
      ? fallbackMethod
      : chosenMethod

  const query = orderIdsParam(orderIds)
  const here = `/account/pay${query ? `?${query}` : ''}`
  const topUpHref = `/account/quotaRecharge?redirect=${encodeURIComponent(here)}`
  const setPasswordHref = `/account/setPayPwd?redirect=${encodeURIComponent(here)}`
  // Amounts for another selection are on their way: what is shown is not what would be paid.
  const settling = stats.isPlaceholderData || stats.isFetching

  const toggle = (id: number, on: boolean) =>
    setSelected((ids) => (on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id)))

  const request = (payPassword?: string): PayRequest => ({
    orderIds,
    method,
    ...(payPassword === undefined ? {} : { payPassword }),
    ...(coupon ? { userCouponId: coupon.userCouponId } : {}),
  })

  /** Sends one attempt; the answer, or undefined after a refusal that has been shown. */
  const send = async (body: PayRequest): Promise<PayResult | undefined> => {
    const current = nextAttempt(attempt.current, body, randomUuid)
    attempt.current = current
    setHeld(true)
    try {
      const result = await pay.mutateAsync({ body, idempotencyKey: current.key })
      attempt.current = null
      return result
    } catch (error) {
      setHeld(false)
      // Without an answer the key is kept: tapping again retries this very attempt, and the
      // server replays it rather than charging twice.
      if (answered(error)) attempt.current = null
      await showRefusal(error, body.method)
      return undefined
    }
  }

  const showRefusal = async (error: unknown, paidWith: PayMethod) => {
    const action = payErrorAction(error, errorText(payDefaultError(paidWith), locale))
    switch (action.kind) {
      case 'password-wrong':
        setPassword({
          open: true,
          state: {
            kind: 'input',
            error:
              action.triesLeft === undefined
                ? action.message
                : t('pay.password.wrongLeft', { count: action.triesLeft }),
          },
        })
        return
      case 'locked':
        setPassword({
          open: true,
          state: {
            kind: 'locked',
            message: action.message,
            ...(action.until === undefined ? {} : { until: action.until }),
          },
        })
        inBackground(settings.refetch())
        return
      case 'password-not-set':
        setPassword({ open: false, state: { kind: 'input' } })
        await askToSetPassword()
        return
      case 'balance-low': {
        setPassword({ open: false, state: { kind: 'input' } })
        const go = await Dialog.confirm({
          title: t('pay.balanceLowTitle'),
          content: action.message,
          confirmText: t('pay.topUp'),
          cancelText: t('pay.otherMethod'),
        })
        if (go) await navigate(topUpHref)
        return
      }
      case 'stale':
        setPassword({ open: false, state: { kind: 'input' } })
        showToast(action.message)
        return
      case 'toast':
        showToast(action.message)
        return
      case 'none':
        return
    }
  }

  const askToSetPassword = async () => {
    const go = await Dialog.confirm({
      content: t('pay.password.notSet'),
      confirmText: t('pay.password.setNow'),
      cancelText: t('common.cancel'),
    })
    if (go) await navigate(setPasswordHref)
  }

  const paid = async (result: PayResult) => {
    setLeaving(true)
    setPassword((p) => ({ ...p, open: false }))
    await navigate(`${PAY_SUCCESS_PATH}?paymentId=${result.paymentId}`, { replace: true })
  }

  const payWithBalance = async (payPassword: string) => {
    if (sending.current) return
    sending.current = true
    try {
      const result = await send(request(payPassword))
      if (result) await paid(result)
    } finally {
      sending.current = false
    }
  }

  const payWithWechat = async () => {
    const result = await send(request())
    if (!result) return
    if (result.status === 'PAID') return paid(result)
    if (!result.payRequest) {
      setHeld(false)
      showToast(errorText('PAYMENT_FAILED', locale))
      return
    }
    const back = `${PAY_SUCCESS_PATH}?paymentId=${result.paymentId}`
    const bridge = await currentMessagingBridgeReady()
    if (bridge) {
      const outcome = await payInMessagingApp(bridge, result.payRequest)
      // 'ok' is only the phone's word: the success page asks the server until the notice lands.
      if (outcome === 'ok') return paid(result)
      // Still unpaid, and the page stays: its reads resume (the payment's orders are attached to
      // it, so a new tap asks the server again).
      setHeld(false)
      showToast(outcome === 'cancel' ? t('pay.cancelled') : errorText('PAYMENT_FAILED', locale))
      return
    }
    setLeaving(true)
    window.location.assign(sandboxCashierUrl(result.payRequest, back))
  }

  const payByRemittance = async () => {
    const result = await send(request())
    if (!result) return
    setLeaving(true)
    await navigate(`/account/bankAddress?${orderIdsParam(result.orderIds)}`, { replace: true })
  }

  const submit = async () => {
    // A ref, not only the button's state: two taps within one frame both see it enabled.
    if (sending.current || leaving || orderIds.length === 0 || !totals) return
    if (method === 'balance') {
      const account = settings.data ?? (await settings.refetch()).data
      if (!account) return
      if (!account.payPasswordSet) {
        await askToSetPassword()
        return
      }
      const locked =
        account.payLockedUntil !== null && Date.parse(account.payLockedUntil) > Date.now()
      setPassword({
        open: true,
        state: locked
          ? {
              kind: 'locked',
              message: errorText('PAY_LOCKED', locale),
              until: account.payLockedUntil ?? undefined,
            }
          : { kind: 'input' },
      })
      return
    }
    sending.current = true
    try {
      if (method === 'wechat') await payWithWechat()
      else await payByRemittance()
    } finally {
      sending.current = false
    }
  }

  if (pending.length === 0) {
    return (
      <PageFrame bodyClassName={styles.body}>
        <EmptyState description={t(wanted.length > 0 ? 'pay.allSettled' : 'pay.nonePending')}>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => inBackground(navigate('/order/list?tab=ship'))}
          >
            {t('pay.toOrders')}
          </Button>
        </EmptyState>
      </PageFrame>
    )
  }

  const footer = (
    <DueFooter
      label={t('pay.total')}
      fen={totals?.total ?? null}
      testId="pay-total"
      submit={{
        label: t(method === 'remittance' ? 'pay.submitRemittance' : 'pay.submit'),
        testId: 'pay-submit',
        disabled: orderIds.length === 0 || !totals || settling,
        loading: (pay.isPending && !password.open) || leaving,
        onClick: () => inBackground(submit()),
      }}
    />
  )

  return (
    <PageFrame bodyClassName={styles.body} footer={footer} footerClassName={DUE_FOOTER_FRAME}>
      <div className={styles.content} data-testid="pay-page">
        {missing.length > 0 ? (
          <NoticeBar
            className={styles.notice}
            content={t('pay.missing', { ids: missing.join('、') })}
            color="alert"
            wrap
          />
        ) : null}
        <section className={styles.card}>
          <h2 className={styles.cardTitle}>
            {t('pay.orders')}
            <span className={styles.count}>
              {t('pay.selected', { count: orders.length, total: pending.length })}
            </span>
          </h2>
          {pending.map((order) => (
            <PayOrderRow
              key={order.id}
              order={order}
              checked={selected.includes(order.id)}
              onToggle={(on) => toggle(order.id, on)}
            />
          ))}
        </section>
        {target.kind === 'order' ? (
          <section className={styles.card}>
            <CouponSelect
              coupons={coupons.data}
              selected={coupon}
              goods={target.order.goods}
              onChoose={setCouponChoice}
              onRetry={coupons.isError && !coupons.data ? () => coupons.refetch() : undefined}
            />
          </section>
        ) : target.kind === 'ambiguous' ? (
          <section className={styles.card}>
            <p className={styles.hint}>{t('pay.couponApart', { count: target.count })}</p>
          </section>
        ) : null}
        {orderIds.length > 0 ? (
          <section className={styles.card} data-testid="pay-amounts">
            {totals ? (
              <>
                <Line label={t('pay.goods')} fen={totals.goods} testId="pay-goods" />
                {totals.fee > 0 ? (
                  <Line label={t('pay.fee')} fen={totals.fee} testId="pay-fee" />
                ) : null}
                {totals.discount > 0 ? (
                  <Line
                    label={t('pay.discount')}
                    fen={totals.discount}
                    minus
                    testId="pay-discount"
                  />
                ) : null}
                <div className={`${styles.line} ${styles.totalLine}`}>
                  <span className={styles.label}>{t('pay.total')}</span>
                  <Price fen={totals.total} size="md" />
                </div>
              </>
            ) : stats.isError ? (
              <LoadFailed onRetry={() => stats.refetch()} />
            ) : (
              <PageLoading />
            )}
          </section>
        ) : (
          <p className={styles.hint}>{t('pay.noneSelected')}</p>
        )}
        <PayMethodList
          value={method}
          onChange={setChosenMethod}
          balance={totals?.balance ?? stats.data?.balance}
          balanceCovers={covers}
          wechatOffered={wechatOffered}
          topUpHref={topUpHref}
        />
        <p className={styles.note}>{t(`pay.note.${method}`)}</p>
      </div>
      <PayPasswordPopup
        visible={password.open}
        amount={totals?.total ?? 0}
        state={password.state}
        busy={pay.isPending || leaving}
        forgotHref={setPasswordHref}
        onFill={(digits) => inBackground(payWithBalance(digits))}
        onClose={() => setPassword({ open: false, state: { kind: 'input' } })}
        onOtherMethod={() => {
          setPassword({ open: false, state: { kind: 'input' } })
          setChosenMethod(wechatOffered ? 'wechat' : 'remittance')
        }}
      />
    </PageFrame>
  )
}

function Line({
  label,
  fen,
  minus = false,
  testId,
}: {
  label: string
  fen: number
  minus?: boolean
  testId: string
}) {
  return (
    <div className={styles.line}>
      <span className={styles.label}>{label}</span>
      <span className={minus ? styles.minus : undefined} data-testid={testId} data-fen={fen}>
        {minus ? '-' : ''}¥{formatFen(fen)}
      </span>
    </div>
  )
}
