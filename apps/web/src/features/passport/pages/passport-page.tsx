import { useState } from 'react'
import { Button, Checkbox, Input, NoticeBar } from 'antd-mobile'
import { SMS_RESEND_SECONDS } from '@numisma/contracts/passport'
import { useTranslation } from 'react-i18next'
import { safeRedirect } from '../../../lib/redirect'
import { showSuccess, showToast } from '../../../lib/toast'
import { useLogin } from '../api/login'
import { useSendSms } from '../api/send-sms'
import { AgreementPopup } from '../components/agreement-popup'
import { useCountdown } from '../components/use-countdown'
import { BrandLogo } from '../../../components/brand-logo'
import styles from './passport-page.module.css'

// Same rule as MobileSchema in contracts/passport, without pulling zod into this small bundle.
const MOBILE = /^1[3-9]\d{9}$/
const CODE = /^\d{6}$/

/**
 * Sign-in by mobile number and SMS code. On success the server has set the login cookies; go back
 * to the wanted same-origin URL (`?redirect=`), or home.
 */
export function PassportPage() {
  const { t } = useTranslation()
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [agreementOpen, setAgreementOpen] = useState(false)
  const [devCode, setDevCode] = useState<string | null>(null)
  const [secondsLeft, startCountdown] = useCountdown()
  const sms = useSendSms()
  const login = useLogin()
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
    if (!agreed) return showToast(t('passport.agreementRequired'))
    login.mutate(
      { mobile, code, agreement: true },
      {
        onSuccess: () => {
          showSuccess(t('passport.success'), 800)
          const redirect = safeRedirect(new URLSearchParams(window.location.search).get('redirect'))
          window.location.replace(redirect)
        },
      },
    )
  }

  return (
    <div className={styles.passport} data-testid="passport">
      <header className={styles.brand}>
        <BrandLogo large />
        <h1 className={styles.welcome}>{t('passport.welcome')}</h1>
        <p className={styles.subtitle}>{t('passport.subtitle')}</p>
      </header>

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
            onChange={setAgreed}
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

        <Button
          block
          type="submit"
          color="primary"
          size="large"
          shape="rounded"
          loading={login.isPending}
        >
          {t('passport.submit')}
        </Button>
      </form>

      <AgreementPopup
        visible={agreementOpen}
        onClose={() => setAgreementOpen(false)}
        onAccept={() => {
          setAgreed(true)
          setAgreementOpen(false)
        }}
      />
    </div>
  )
}
