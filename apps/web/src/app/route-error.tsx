import { Button } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../components/empty-state'

/** A page that failed to load (usually its chunk, on a lost connection): say so, offer a retry. */
export function RouteError() {
  const { t } = useTranslation()
  const offline = !navigator.onLine
  return (
    <div className="route-error">
      <EmptyState
        status={offline ? 'disconnected' : 'default'}
        description={offline ? t('errors.offline') : t('errors.pageFailed')}
      >
        <Button color="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>
      </EmptyState>
    </div>
  )
}
