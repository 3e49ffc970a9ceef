import { useState } from 'react'
import { Avatar, Button, Checkbox, Input, NoticeBar } from 'antd-mobile'
import { LeftOutline } from 'antd-mobile-icons'
import { SMS_RESEND_SECONDS } from '@numisma/contracts/passport'
import { useTranslation } from '../../../lib/i18n'
import { clearWxBind, readWxBind, WX_BIND_PARAM } from '../../../lib/in-app/wx-bind-handoff'
import type { WxBindHandoff } from '../../../lib/in-app/wx-bind-handoff'
import { startWxOAuth } from '../../../lib/in-app/wx-oauth'
import { safeRedirect } from '../../../lib/redirect'
import { showSuccess, showToast } from '../../../lib/toast'
import { useLogin } from '../api/login'
import { useSendSms } from '../api/send-sms'
import { isBindExpired, useWxBind } from '../api/wx-bind'
import { AgreementPopup } from '../components/agreement-popup'
import { backTarget, type NeedsSignIn } from '../components/back-target'
import { useCountdown } from '../components/use-countdown'
import { BrandLogo } from '../../../components/brand-logo'
import styles from './passport-page.module.css'

// Same rule as MobileSchema in contracts/passport, without pulling zod into this small bundle.
const MOBILE = /^1[3-9]\d{9}$/
const CODE = /^\d{6}$/

/**
 * `?bind=1`: the messaging platform's user has no account linked yet (features/wx-auth); the same
 * SMS sign-in then also links their open id. Without the stored handoff (another tab, or used) the
 * binding cannot go on.
 */
type Mode = { kind: 'login' } | { kind: 'bind'; handoff: WxBindHandoff } | { kind: 'bindExpired' }

function modeOf(search: string, storage: Pick<Storage, 'getItem'>): Mode {
  if (!new URLSearchParams(search).has(WX_BIND_PARAM)) return { kind: 'login' }
  const handoff = readWxBind(storage)
  return handoff ? { kind: 'bind', handoff } : { kind: 'bindExpired' }
}

const wantedUrl = (): string =>
  safeRedirect(new URLSearchParams(window.location.search).get('redirect'))

/** Leaves without signing in: the page is a separate app, often opened by a replace, so no history. */
function BackControl({ needsSignIn }: { needsSignIn: NeedsSignIn }) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      className={styles.back}
      data-testid="passport-back"
      aria-label={t('passport.back')}
      onClick={() =>
        window.location.replace(
          backTarget(new URLSearchParams(window.location.search).get('redirect'), needsSignIn),
        )
      }
    >
      <LeftOutline />
    </button>
  )
}

/**
 * Sign-in by mobile number and SMS code. On success the server has set the login cookies; go back
 * to the wanted same-origin URL (`?redirect=`), or home.
 */
export function PassportPage({ needsSignIn }: { needsSignIn: NeedsSignIn }) {
  const { t } = useTranslation()
  const [mode, setMode] = useState(() => modeOf(window.location.search, window.sessionStorage))
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [agreed, setAgreed] = useState(false)
  // Shown under the checkbox, not as a toast: a centred toast covered the submit button.
  const [agreementHint, setAgreementHint] = useState(false)
  const [agreementOpen, setAgreementOpen] = useState(false)
  const [devCode, setDevCode] = useState<string | null>(null)
  const [secondsLeft, startCountdown] = useCountdown()
  const sms = useSendSms()
  const login = useLogin()
  const bind = useWxBind()
  const mobileValid = MOBILE.test(mobile)

  const sendCode = (): void => {
    if (!mobileValid) {
      showToast(t('passport.mobileInvalid'))
      return
    }
    sms.mutate(mobile, {
      onSuccess: (result) => {
        startCountdown(SMS_RESEND_SECONDS)
        setDevCode(result.devCode ?? null)
        showToast(t('passport.sent'))
      },
    })
  }

  const submit = (): void => {
    if (!mobileValid) return showToast(t('passport.mobileInvalid'))
    if (!CODE.test(code)) return showToast(t('passport.codeInvalid'))
    if (!agreed) return setAgreementHint(true)
    const signedIn = (): void => {
      showSuccess(t('passport.success'), 800)
      window.location.replace(wantedUrl())
    }
    if (mode.kind === 'bind') {
      bind.mutate(
        { bindToken: mode.handoff.bindToken, mobile, code, agreement: true },
        {
          onSuccess: () => {
            clearWxBind(window.sessionStorage)
            signedIn()
          },
          onError: (error) => {
            if (!isBindExpired(error)) return
            clearWxBind(window.sessionStorage)
            setMode({ kind: 'bindExpired' })
          },
        },
      )
      return
    }
    login.mutate({ mobile, code, agreement: true }, { onSuccess: signedIn })
  }

  if (mode.kind === 'bindExpired') {
    return (
      <div className={styles.passport} data-testid="passport-bind-expired">
        <BackControl needsSignIn={needsSignIn} />
        <header className={styles.brand}>
          <BrandLogo large />
          <h1 className={styles.welcome}>{t('wxAuth.bindExpired')}</h1>
        </header>
        <div className={styles.form}>
          <Button
            block
            color="primary"
            size="large"
            shape="rounded"
            onClick={() => {
              if (!startWxOAuth(wantedUrl())) showToast(t('wxAuth.unavailable'))
            }}
          >
            {t('wxAuth.retry')}
          </Button>
        </div>
      </div>
    )
  }

  return (
    <div className={styles.passport} data-testid="passport" data-mode={mode.kind}>
      <BackControl needsSignIn={needsSignIn} />
      {mode.kind === 'bind' ? (
        <header className={styles.brand} data-testid="passport-bind">
          <Avatar
            src={mode.handoff.avatar}
            className={styles.avatar}
            style={{ '--size': '4rem', '--border-radius': '50%' }}
          />
          <h1 className={`${styles.welcome} ${styles.greeting}`}>
            {t('wxAuth.bindGreeting', { name: mode.handoff.nickname })}
          </h1>
          <p className={styles.subtitle}>{t('wxAuth.bindHint')}</p>
        </header>
      ) : (
        <header className={styles.brand}>
          <BrandLogo large />
          <h1 className={styles.welcome}>{t('passport.welcome')}</h1>
          <p className={styles.subtitle}>{t('passport.subtitle')}</p>
        </header>
      )}

      <form
        className={styles.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <label className={styles.field}>
          <span className={styles.label}>{t('passport.mobile')}</span>
          <Input
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            maxLength={11}
            clearable
            placeholder={t('passport.mobilePlaceholder')}
            value={mobile}
            onChange={(v) => setMobile(v.replace(/\D/g, ''))}
            aria-label={t('passport.mobile')}
          />
        </label>
        {mobile.length === 11 && !mobileValid ? (
          <div className={styles.error}>{t('passport.mobileInvalid')}</div>
        ) : null}
        <div className={styles.field}>
          <span className={styles.label}>{t('passport.code')}</span>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t('passport.codePlaceholder')}
            value={code}
            onChange={(v) => setCode(v.replace(/\D/g, ''))}
            aria-label={t('passport.code')}
          />
          <Button
            size="small"
            fill="none"
            color="primary"
            className={styles.send}
            data-testid="passport-send"
            disabled={secondsLeft > 0 || sms.isPending}
            loading={sms.isPending}
            onClick={sendCode}
          >
            {secondsLeft > 0
              ? t('passport.resend', { seconds: secondsLeft })
              : t('passport.sendCode')}
          </Button>
        </div>
        {devCode ? (
          <NoticeBar
            className={styles.devCode}
            data-testid="passport-dev-code"
            color="info"
            content={t('passport.devCode', { code: devCode })}
          />
        ) : null}

        <div className={styles.agreement} data-testid="passport-agreement">
          <Checkbox
            checked={agreed}
            onChange={(checked) => {
              setAgreed(checked)
              if (checked) setAgreementHint(false)
            }}
            style={{ '--icon-size': '16px', '--font-size': '13px' }}
          >
            {t('passport.agreePrefix')}
          </Checkbox>
          <a
            href="#agreement"
            className={styles.agreementLink}
            onClick={(e) => {
              e.preventDefault()
              setAgreementOpen(true)
            }}
          >
            {t('passport.agreementLink')}
          </a>
        </div>
        {agreementHint ? (
          <div className={styles.error} role="alert" data-testid="passport-agreement-hint">
            {t('passport.agreementRequired')}
          </div>
        ) : null}

        <Button
          block
          type="submit"
          color="primary"
          size="large"
          shape="rounded"
          loading={login.isPending || bind.isPending}
        >
          {mode.kind === 'bind' ? t('wxAuth.bindSubmit') : t('passport.submit')}
        </Button>
      </form>

      <AgreementPopup
        visible={agreementOpen}
        onClose={() => setAgreementOpen(false)}
        onAccept={() => {
          setAgreed(true)
          setAgreementHint(false)
          setAgreementOpen(false)
        }}
      />
    </div>
  )
}
