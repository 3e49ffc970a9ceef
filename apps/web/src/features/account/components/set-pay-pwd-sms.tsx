import { useEffect, useRef, useState } from 'react'
import { maskMobile, SMS_RESEND_SECONDS } from '@numisma/contracts/passport'
import {
  Button,
  NoticeBar,
  NumberKeyboard,
  PasscodeInput,
  type PasscodeInputRef,
} from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { ApiError } from '../../../lib/api-client'
import { useSendPayPasswordCode } from '../../../lib/account/pay-password'
import { showToast } from '../../../lib/toast'
import styles from './set-pay-pwd-sms.module.css'

export interface SetPayPwdSmsProps {
  /** The user's own mobile: the only number a code that proves them may go to. */
  mobile: string
  /** The cells show a refusal (a wrong code): they start empty and red. */
  error: boolean
  onCode: (code: string) => void
}

/**
 * Proving the own mobile when the payment password is forgotten (or payment is locked): a code
 * through the sign-in SMS call, typed into six plain cells on the number keyboard.
 */
export function SetPayPwdSms({ mobile, error, onCode }: SetPayPwdSmsProps) {
  const { t } = useTranslation()
  const send = useSendPayPasswordCode()
  const [code, setCode] = useState('')
  const [devCode, setDevCode] = useState<string | null>(null)
  const [secondsLeft, startCountdown] = useCountdown()
  const cells = useRef<PasscodeInputRef>(null)

  const sendCode = () => {
    send.mutate(mobile, {
      onSuccess: (result) => {
        startCountdown(SMS_RESEND_SECONDS)
        setDevCode(result.devCode ?? null)
        showToast(t('payPassword.sms.sent'))
        cells.current?.focus()
      },
      onError: (failure) => {
        // A code went out a moment ago (at sign-in, say): wait as long as the server says.
        const wait = failure instanceof ApiError ? failure.details?.retryAfterSeconds : undefined
        if (typeof wait === 'number' && wait > 0) startCountdown(wait)
      },
    })
  }

  return (
    <div className={styles.sms} data-testid="set-pay-pwd-sms">
      <div className={styles.row}>
        <span className={styles.mobile}>
          {t('payPassword.sms.to', { mobile: maskMobile(mobile) })}
        </span>
        <Button
          size="small"
          color="primary"
          fill="outline"
          disabled={secondsLeft > 0 || send.isPending}
          loading={send.isPending}
          onClick={sendCode}
          data-testid="set-pay-pwd-send"
        >
          {secondsLeft > 0
            ? t('payPassword.sms.resend', { seconds: secondsLeft })
            : t('payPassword.sms.send')}
        </Button>
      </div>
      <PasscodeInput
        ref={cells}
        className={styles.cells}
        value={code}
        length={6}
        plain
        seperated
        error={error && code === ''}
        onChange={setCode}
        onFill={onCode}
        keyboard={<NumberKeyboard showCloseButton={false} safeArea />}
        aria-label={t('payPassword.sms.code')}
        data-testid="set-pay-pwd-code"
      />
      {devCode ? (
        <NoticeBar
          className={styles.devCode}
          color="info"
          content={t('payPassword.sms.devCode', { code: devCode })}
          data-testid="set-pay-pwd-dev-code"
        />
      ) : null}
    </div>
  )
}

/** Seconds left of a countdown started with `start(seconds)`; 0 when idle. */
function useCountdown(): [number, (seconds: number) => void] {
  const [endsAt, setEndsAt] = useState(0)
  const [left, setLeft] = useState(0)
  useEffect(() => {
    if (endsAt === 0) return
    const tick = () => {
      const remaining = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000))
      setLeft(remaining)
      if (remaining === 0) setEndsAt(0)
    }
    tick()
    const timer = window.setInterval(tick, 250)
    return () => window.clearInterval(timer)
  }, [endsAt])
  return [left, (seconds) => setEndsAt(Date.now() + seconds * 1000)]
}
