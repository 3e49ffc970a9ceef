import { useEffect, useRef, useState } from 'react'
import { formatChinaDate } from '@numisma/contracts/dates'
import { Button, NumberKeyboard, PasscodeInput, Popup, type PasscodeInputRef } from 'antd-mobile'
import { LockOutline } from 'antd-mobile-icons'
import { useTranslation } from '../lib/i18n'
import { Link } from 'react-router'
import { Price } from './price'
import styles from './pay-password-popup.module.css'

/** What the popup shows: the keypad (with the last refusal, if any), or the lock. */
export type PasswordPopupState =
  { kind: 'input'; error?: string } | { kind: 'locked'; message: string; until?: string }

export interface PayPasswordPopupProps {
  visible: boolean
  /** What the payment takes, in fen. */
  amount: number
  state: PasswordPopupState
  /** A payment is on its way: the keypad rests until it is answered. */
  busy: boolean
  /** Where a forgotten password is set again (an SMS code proves who it is). */
  forgotHref: string
  onFill: (password: string) => void
  onClose: () => void
  /** Leave the balance for another method (offered while locked, when there is one). */
  onOtherMethod?: () => void
  /** What the amount is, and what the keypad says while busy (a payment's words by default). */
  amountLabel?: string
  busyLabel?: string
}

/**
 * The payment password of a balance payment (paying orders, or the fees of a delivery): six cells over antd-mobile's own number keyboard
 * (never the phone's keyboard, so the digits stay in this page), sent as soon as the sixth digit
 * is in. A wrong password clears the cells and says so; a lock says until when, in China time.
 */
export function PayPasswordPopup({
  visible,
  amount,
  state,
  busy,
  forgotHref,
  onFill,
  onClose,
  onOtherMethod,
  amountLabel,
  busyLabel,
}: PayPasswordPopupProps) {
  const { t } = useTranslation()
  const error = state.kind === 'input' ? state.error : undefined

  return (
    <Popup
      visible={visible}
      onMaskClick={busy ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!busy}
      bodyClassName={styles.body}
      destroyOnClose
    >
      <div
        className={state.kind === 'input' ? `${styles.sheet} ${styles.keypad}` : styles.sheet}
        data-testid="pay-password"
      >
        <h2 className={styles.title}>
          {t(state.kind === 'locked' ? 'pay.password.lockedTitle' : 'pay.password.title')}
        </h2>
        <p className={styles.amount}>
          <span className={styles.amountLabel}>{amountLabel ?? t('pay.password.amount')}</span>
          <Price fen={amount} size="lg" />
        </p>
        {state.kind === 'locked' ? (
          <div className={styles.locked} data-testid="pay-locked" role="alert">
            <LockOutline className={styles.lockIcon} />
            <p>
              {state.until
                ? t('pay.password.lockedUntil', {
                    time: formatChinaDate(state.until, 'YYYY-MM-DD HH:mm'),
                  })
                : state.message}
            </p>
            {onOtherMethod ? (
              <Button size="small" color="primary" fill="outline" onClick={onOtherMethod}>
                {t('pay.password.otherMethod')}
              </Button>
            ) : null}
          </div>
        ) : (
          <>
            <Keypad busy={busy} busyLabel={busyLabel} error={error} onFill={onFill} />
            <Link to={forgotHref} replace className={styles.forgot}>
              {t('pay.password.forgot')}
            </Link>
          </>
        )}
      </div>
    </Popup>
  )
}

/**
 * The six cells over the number keyboard, focused as the sheet opens. The digits are handed on
 * and cleared as soon as the sixth is in, so a refusal finds the cells empty for the next try;
 * the sheet destroys this on close, so reopening starts empty too.
 */
function Keypad({
  busy,
  busyLabel,
  error,
  onFill,
}: {
  busy: boolean
  busyLabel: string | undefined
  error: string | undefined
  onFill: (password: string) => void
}) {
  const { t } = useTranslation()
  const [value, setValue] = useState('')
  const input = useRef<PasscodeInputRef>(null)
  // Focused (so the keyboard is up) as soon as the sheet shows it.
  useEffect(() => {
    input.current?.focus()
  }, [])
  return (
    <>
      <PasscodeInput
        ref={input}
        className={styles.cells}
        value={value}
        length={6}
        seperated
        error={error !== undefined && !busy && value === ''}
        onChange={(next) => {
          if (busy) return
          if (next.length < 6) {
            setValue(next)
            return
          }
          setValue('')
          onFill(next.slice(0, 6))
        }}
        keyboard={<NumberKeyboard showCloseButton={false} safeArea />}
        data-testid="pay-password-input"
      />
      <p
        className={styles.message}
        role={error && !busy ? 'alert' : undefined}
        data-testid="pay-password-error"
      >
        {busy ? (busyLabel ?? t('pay.paying')) : (error ?? '')}
      </p>
    </>
  )
}
