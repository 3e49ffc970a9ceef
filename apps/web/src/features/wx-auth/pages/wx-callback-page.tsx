import { useEffect, useState } from 'react'
import { Button, DotLoading } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { EmptyState } from '../../../components/empty-state'
import { PageFrame } from '../../../components/page-frame'
import { ApiError } from '../../../lib/api-client'
import { storeWxBind, wxBindUrl } from '../../../lib/in-app/wx-bind-handoff'
import { startWxOAuth, wxStateMatches } from '../../../lib/in-app/wx-oauth'
import { safeRedirect } from '../../../lib/redirect'
import { exchangeWxCodeOnce } from '../api/get-wx-open-id'
import styles from './wx-callback-page.module.css'

type Outcome =
  | { kind: 'exchanging' }
  | { kind: 'refused' }
  | { kind: 'forged' }
  | { kind: 'failed'; message: string }
  | { kind: 'leaving' }

interface CallbackParams {
  code: string | null
  state: string | null
  wanted: string
}

function readParams(search: string): CallbackParams {
  const query = new URLSearchParams(search)
  return {
    code: query.get('code'),
    state: query.get('state'),
    wanted: safeRedirect(query.get('redirect')),
  }
}

/** What the page can tell before asking the server anything. */
function firstOutcome({ code, state }: CallbackParams): Outcome {
  // The platform sends the user back without a code when they tapped 拒绝.
  if (!code) return { kind: 'refused' }
  if (!wxStateMatches(window.sessionStorage, state)) return { kind: 'forged' }
  return { kind: 'exchanging' }
}

/**
 * `/wx/callback` (spec §2): where the platform's authorize page sends the user back. A linked
 * account is signed in by the exchange and goes on to the wanted page; a first-time user goes to
 * the sign-in app to bind a mobile number. The page is left with `replace`, so Back does not bring
 * the spent code back.
 */
export function WxCallbackPage() {
  const { t } = useTranslation()
  const [params] = useState(() => readParams(window.location.search))
  const [outcome, setOutcome] = useState<Outcome>(() => firstOutcome(params))

  useEffect(() => {
    if (outcome.kind !== 'exchanging' || !params.code) return
    let current = true
    exchangeWxCodeOnce(params.code).then(
      (result) => {
        if (!current) return
        setOutcome({ kind: 'leaving' })
        if (result.linked) {
          window.location.replace(params.wanted)
          return
        }
        storeWxBind(window.sessionStorage, {
          bindToken: result.bindToken,
          nickname: result.nickname,
          avatar: result.avatar,
        })
        window.location.replace(wxBindUrl(params.wanted))
      },
      (error: unknown) => {
        if (!current) return
        const message = error instanceof ApiError ? error.message : t('wxAuth.failed')
        setOutcome({ kind: 'failed', message })
      },
    )
    return () => {
      current = false
    }
  }, [outcome.kind, params, t])

  if (outcome.kind === 'exchanging' || outcome.kind === 'leaving') {
    return (
      <PageFrame>
        <div className={styles.waiting} role="status" aria-live="polite" data-testid="wx-callback">
          <DotLoading color="primary" style={{ fontSize: 28 }} />
          <p>{t('wxAuth.signingIn')}</p>
        </div>
      </PageFrame>
    )
  }

  const description =
    outcome.kind === 'refused'
      ? t('wxAuth.refused')
      : outcome.kind === 'forged'
        ? t('wxAuth.stateMismatch')
        : outcome.message
  return (
    <PageFrame>
      <div data-testid="wx-callback" data-outcome={outcome.kind}>
        <EmptyState status="default" title={t('wxAuth.notSignedIn')} description={description}>
          <div className={styles.actions}>
            <Button
              color="primary"
              block
              onClick={() => {
                if (!startWxOAuth(params.wanted))
                  setOutcome({ kind: 'failed', message: t('wxAuth.unavailable') })
              }}
            >
              {t('wxAuth.retry')}
            </Button>
            <Button block onClick={() => window.location.replace('/')}>
              {t('common.backHome')}
            </Button>
          </div>
        </EmptyState>
      </div>
    </PageFrame>
  )
}
