import { useEffect, useRef, useState } from 'react'
import type { AccountSettings } from '@numisma/contracts/account'
import { formatChinaDate } from '@numisma/contracts/dates'
import { NumberKeyboard, PasscodeInput, Steps, type PasscodeInputRef } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import {
  setPayPasswordRefusal,
  usePayPasswordSettings,
  useSetPayPassword,
} from '../../../lib/account/pay-password'
import { inBackground } from '../../../lib/background'
import { readSession } from '../../../lib/cookies'
import { safeRedirect } from '../../../lib/redirect'
import { showSuccess, showToast } from '../../../lib/toast'
import { useUserStatistics } from '../api/get-user-statistics'
import {
  chooseOld,
  chooseSms,
  codeEntered,
  confirmEntered,
  newEntered,
  oldEntered,
  refused,
  startFlow,
  type SetPayPwdFlow,
  type SetPayPwdNotice,
} from '../components/set-pay-pwd-flow'
import { SetPayPwdSms } from '../components/set-pay-pwd-sms'
import styles from './set-pay-pwd-page.module.css'

/**
 * /account/setPayPwd: the payment password of balance payments (DESIGN §3). A first one is typed
 * twice; changing it first proves who you are, with the old password or an SMS code to your own
 * mobile ("forgot it?", and the only way while payment is locked). Then back, or on to
 * `?redirect=` (the pay page sends its own address).
 */
export function SetPayPwdPage() {
  const settings = usePayPasswordSettings()
  return (
    <PageFrame bodyClassName={styles.body}>
      {settings.data ? (
        <SetPayPwdSteps settings={settings.data} />
      ) : settings.isError ? (
        <LoadFailed onRetry={() => settings.refetch()} />
      ) : (
        <PageLoading />
      )}
    </PageFrame>
  )
}

function SetPayPwdSteps({ settings }: { settings: AccountSettings }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const user = useUserStatistics()
  const save = useSetPayPassword()
  // The settings as the page opened: refreshing them (after a refusal) must not restart the steps.
  const [flow, setFlow] = useState<SetPayPwdFlow>(() => startFlow(settings))
  const mobile = user.data?.mobile ?? readSession()?.mobile ?? ''

  const leave = async () => {
    const redirect = params.get('redirect')
    if (redirect) await navigate(safeRedirect(redirect), { replace: true })
    else if (window.history.length > 1) await navigate(-1)
    else await navigate('/ucenter', { replace: true })
  }

  const confirm = (again: string) => {
    const next = confirmEntered(flow, again)
    setFlow(next.flow)
    if (!next.submit) return
    save.mutate(next.submit, {
      onSuccess: () => {
        showSuccess(t(flow.changing ? 'payPassword.changed' : 'payPassword.done'))
        inBackground(leave())
      },
      onError: (error) => {
        const refusal = setPayPasswordRefusal(error, t('payPassword.failed'))
        const back = refused(flow, refusal)
        if (back) setFlow(back)
        else if (refusal.kind === 'toast') showToast(refusal.message)
      },
    })
  }

  const stepIndex = flow.step === 'new' ? 1 : flow.step === 'confirm' ? 2 : 0
  const stepTitles = [
    ...(flow.changing ? [t('payPassword.steps.verify')] : []),
    t('payPassword.steps.new'),
    t('payPassword.steps.confirm'),
  ]
  const noticeText = flow.notice ? describe(flow.notice) : ''

  function describe(notice: SetPayPwdNotice): string {
    switch (notice.kind) {
      case 'mismatch':
        return t('payPassword.mismatch')
      case 'old-wrong':
        return notice.triesLeft === undefined
          ? notice.message
          : t('payPassword.oldWrongLeft', { count: notice.triesLeft })
      case 'locked':
        return notice.until
          ? t('payPassword.lockedUntil', {
              time: formatChinaDate(notice.until, 'YYYY-MM-DD HH:mm'),
            })
          : (notice.message ?? t('payPassword.locked'))
      case 'code-wrong':
      case 'proof-required':
        return notice.message
    }
  }

  const cellError = flow.notice !== null && flow.notice.kind !== 'locked'

  return (
    <div className={styles.steps} data-testid="set-pay-pwd">
      <Steps current={flow.changing ? stepIndex : stepIndex - 1} className={styles.progress}>
        {/* An array without holes: Steps counts a null child as a step. */}
        {stepTitles.map((title) => (
          <Steps.Step key={title} title={title} />
        ))}
      </Steps>

      <section className={styles.panel} data-step={flow.step}>
        <h2 className={styles.title}>{t(`payPassword.${flow.step}.title`)}</h2>
        <p className={styles.hint}>{t(`payPassword.${flow.step}.hint`)}</p>

        {flow.step === 'sms' ? (
          mobile ? (
            <SetPayPwdSms
              mobile={mobile}
              error={cellError}
              onCode={(code) => setFlow(codeEntered(flow, code))}
            />
          ) : (
            <p className={styles.notice}>{t('payPassword.sms.noMobile')}</p>
          )
        ) : (
          // Keyed by step and notice: each step, and each refusal, starts from empty cells.
          <PasswordCells
            key={`${flow.step}:${flow.notice?.kind ?? ''}`}
            label={t(`payPassword.${flow.step}.title`)}
            error={cellError}
            busy={save.isPending}
            onFill={(password) => {
              if (flow.step === 'old') setFlow(oldEntered(flow, password))
              else if (flow.step === 'new') setFlow(newEntered(flow, password))
              else confirm(password)
            }}
          />
        )}

        <p
          className={flow.notice?.kind === 'locked' ? styles.lockNotice : styles.notice}
          role={noticeText ? 'alert' : undefined}
          data-testid="set-pay-pwd-notice"
        >
          {save.isPending ? t('payPassword.submitting') : noticeText}
        </p>

        {flow.step === 'old' ? (
          <button type="button" className={styles.switch} onClick={() => setFlow(chooseSms(flow))}>
            {t('payPassword.forgot')}
          </button>
        ) : null}
        {flow.step === 'sms' && flow.changing && !flow.lockedUntil ? (
          <button type="button" className={styles.switch} onClick={() => setFlow(chooseOld(flow))}>
            {t('payPassword.useOld')}
          </button>
        ) : null}
      </section>

      <ul className={styles.tips}>
        {t('payPassword.tips', { returnObjects: true }).map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </div>
  )
}

/** Six hidden cells over antd-mobile's number keyboard, focused as they appear. */
function PasswordCells({
  label,
  error,
  busy,
  onFill,
}: {
  label: string
  error: boolean
  busy: boolean
  onFill: (password: string) => void
}) {
  const [value, setValue] = useState('')
  const cells = useRef<PasscodeInputRef>(null)
  useEffect(() => {
    cells.current?.focus()
  }, [])
  return (
    <PasscodeInput
      ref={cells}
      className={styles.cells}
      value={value}
      length={6}
      plain={false}
      seperated
      error={error && value === ''}
      onChange={(next) => {
        if (!busy) setValue(next)
      }}
      onFill={(password) => {
        if (!busy) onFill(password)
      }}
      keyboard={<NumberKeyboard showCloseButton={false} safeArea />}
      aria-label={label}
      data-testid="set-pay-pwd-cells"
    />
  )
}
