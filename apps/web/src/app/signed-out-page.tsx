import { Button } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { useNavigate } from 'react-router'
import { EmptyState } from '../components/empty-state'
import { PageFrame } from '../components/page-frame'
import { inBackground } from '../lib/background'

/**
 * A guarded route whose sign-in did not happen: the native app's login screen was closed, or the
 * app refused or never answered. Says so instead of waiting forever, and offers the login again.
 */
export function SignedOutPage({ onSignIn }: { onSignIn: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <PageFrame>
      <EmptyState
        status="default"
        title={t('signedOut.title')}
        description={t('signedOut.description')}
      >
        <div data-testid="signed-out" style={{ display: 'grid', gap: 12 }}>
          <Button color="primary" onClick={onSignIn}>
            {t('signedOut.signIn')}
          </Button>
          <Button onClick={() => inBackground(navigate('/', { replace: true }))}>
            {t('common.backHome')}
          </Button>
        </div>
      </EmptyState>
    </PageFrame>
  )
}
