import { Button } from 'antd-mobile'
import { useTranslation } from '../lib/i18n'
import { useNavigate } from 'react-router'
import { EmptyState } from '../components/empty-state'
import { PageFrame } from '../components/page-frame'
import { inBackground } from '../lib/background'

export function NotFoundPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <PageFrame>
      <EmptyState status="default" title="404" description={t('notFound.description')}>
        <Button color="primary" onClick={() => inBackground(navigate('/', { replace: true }))}>
          {t('common.backHome')}
        </Button>
      </EmptyState>
    </PageFrame>
  )
}
