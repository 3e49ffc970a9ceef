import { Button, Result } from 'antd-mobile'
import { useLayoutEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { releaseFirstScreen } from '../lib/first-screen-paint'

/**
 * A page that failed to load (usually its chunk, on a lost connection): say so, offer a retry.
 * Part of the first load, so it has to work offline; antd-mobile's Result (an icon) rather than the
 * error block's illustrations keeps it small (issue 13).
 */
export function RouteError() {
  const { t } = useTranslation()
  // In place of a page, the error takes the server's first screen away too (ADR 026 §9).
  useLayoutEffect(() => {
    releaseFirstScreen()
  }, [])
  const offline = !navigator.onLine
  return (
    <div className="route-error">
      <Result
        status={offline ? 'waiting' : 'warning'}
        title={offline ? t('errors.offline') : t('errors.pageFailed')}
      />
      <div style={{ padding: '0 1rem' }}>
        <Button block color="primary" onClick={() => window.location.reload()}>
          {t('common.retry')}
        </Button>
      </div>
    </div>
  )
}
