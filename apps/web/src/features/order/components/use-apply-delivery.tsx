import { useRef, useState, type ReactNode } from 'react'
import type { DeliveryApplied } from '@numisma/contracts/delivery'
import { errorText } from '@numisma/contracts/errors'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { Dialog } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { PayPasswordPopup, type PasswordPopupState } from '../../../components/pay-password-popup'
import { usePayPasswordSettings } from '../../../lib/account/pay-password'
import { inBackground } from '../../../lib/background'
import { useApplyDelivery, type DeliveryApplyBody } from '../../../lib/delivery/apply-delivery'
import { answered, nextAttempt, type Attempt } from '../../../lib/finance/attempt'
import { payErrorAction } from '../../../lib/payment/pay-error'
import { showToast } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'

export interface ApplyDeliveryFlow {
  /** Applies at once when nothing is due; otherwise asks the payment password first. */
  submit: (body: DeliveryApplyBody, total: number) => Promise<void>
  busy: boolean
  /** The password sheet, to be rendered by the page. */
  sheet: ReactNode
}

/**
 * Applying for delivery from /order/applySend (express) and /order/applySelf (pickup): the fees
 * (shipping, insurance, storage) are taken from the balance, so a total above nothing asks the
 * 6-digit payment password in the same sheet the payment screen uses, and each refusal is shown
 * where it belongs (a wrong password in the sheet, a lock with its time, no password yet or a low
 * balance with the way out, anything else as the server's toast). Applied, the caller leaves for
 * /account/applySuc. `here` is where setting a password or topping up comes back to.
 */
export function useApplyDeliveryFlow(here: string): ApplyDeliveryFlow {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const apply = useApplyDelivery()
  const settings = usePayPasswordSettings()
  const [sheet, setSheet] = useState<{ open: boolean; state: PasswordPopupState; amount: number }>({
    open: false,
    state: { kind: 'input' },
    amount: 0,
  })
  const [leaving, setLeaving] = useState(false)
  const pending = useRef<DeliveryApplyBody | null>(null)
  const attempt = useRef<Attempt | null>(null)
  const sending = useRef(false)
  const setPasswordHref = `/account/setPayPwd?redirect=${encodeURIComponent(here)}`
  const topUpHref = `/account/quotaRecharge?redirect=${encodeURIComponent(here)}`

  const close = () => setSheet((s) => ({ ...s, open: false, state: { kind: 'input' } }))

  const askToSetPassword = async () => {
    const go = await Dialog.confirm({
      content: t('pay.password.notSet'),
      confirmText: t('pay.password.setNow'),
      cancelText: t('common.cancel'),
    })
    if (go) await navigate(setPasswordHref)
  }

  const showRefusal = async (error: unknown) => {
    const action = payErrorAction(error, errorText('SUBMIT_FAILED', locale))
    switch (action.kind) {
      case 'password-wrong':
        setSheet((s) => ({
          ...s,
          open: true,
          state: {
            kind: 'input',
            error:
              action.triesLeft === undefined
                ? action.message
                : t('pay.password.wrongLeft', { count: action.triesLeft }),
          },
        }))
        return
      case 'locked':
        setSheet((s) => ({
          ...s,
          open: true,
          state: {
            kind: 'locked',
            message: action.message,
            ...(action.until === undefined ? {} : { until: action.until }),
          },
        }))
        return
      case 'password-not-set':
        close()
        await askToSetPassword()
        return
      case 'balance-low': {
        close()
        const go = await Dialog.confirm({
          title: t('pay.balanceLowTitle'),
          content: t('delivery.balanceLow'),
          confirmText: t('pay.topUp'),
          cancelText: t('common.cancel'),
        })
        if (go) await navigate(topUpHref)
        return
      }
      case 'stale':
      case 'toast':
        close()
        showToast(action.message)
        return
      case 'none':
        return
    }
  }

  const send = async (body: DeliveryApplyBody) => {
    if (sending.current) return
    sending.current = true
    const current = nextAttempt(attempt.current, body, randomUuid)
    attempt.current = current
    try {
      const applied: DeliveryApplied = await apply.mutateAsync({
        body,
        idempotencyKey: current.key,
      })
      attempt.current = null
      setLeaving(true)
      close()
      await navigate(`/account/applySuc?shipmentId=${applied.shipmentId}`, { replace: true })
    } catch (error) {
      // Without an answer the key is kept: tapping again retries this very attempt.
      if (answered(error)) attempt.current = null
      await showRefusal(error)
    } finally {
      sending.current = false
    }
  }

  const submit = async (body: DeliveryApplyBody, total: number) => {
    if (sending.current || leaving) return
    if (total <= 0) {
      await send(body)
      return
    }
    const account = settings.data ?? (await settings.refetch()).data
    if (!account) return
    if (!account.payPasswordSet) {
      await askToSetPassword()
      return
    }
    pending.current = body
    const locked =
      account.payLockedUntil !== null && Date.parse(account.payLockedUntil) > Date.now()
    setSheet({
      open: true,
      amount: total,
      state: locked
        ? {
            kind: 'locked',
            message: errorText('PAY_LOCKED', locale),
            until: account.payLockedUntil ?? undefined,
          }
        : { kind: 'input' },
    })
  }

  return {
    submit,
    busy: apply.isPending || leaving,
    sheet: (
      <PayPasswordPopup
        visible={sheet.open}
        amount={sheet.amount}
        state={sheet.state}
        busy={apply.isPending || leaving}
        forgotHref={setPasswordHref}
        onFill={(digits) => {
          const body = pending.current
          if (body) inBackground(send({ ...body, payPassword: digits }))
        }}
        onClose={close}
      />
    ),
  }
}
