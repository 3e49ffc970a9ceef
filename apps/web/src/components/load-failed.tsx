import { Button } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { EmptyState } from './empty-state'

/** A block whose data failed (the toast already said why): a sentence and a retry button. */
export function LoadFailed({ onRetry }: { onRetry: () => unknown }) {
  const { t } = useTranslation()
  return (
    <EmptyState status="disconnected" description={t('errors.loadFailed')}>
      <Button size="small" color="primary" fill="outline" onClick={() => void onRetry()}>
        {t('common.retry')}
      </Button>
    </EmptyState>
  )
}
