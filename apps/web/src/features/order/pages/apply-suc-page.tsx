import { Button, Result } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { PageFrame } from '../../../components/page-frame'
import { PageActions } from '../../../components/page-actions'
import { inBackground } from '../../../lib/background'

/** Self-pickup appointment booked (public route: reached from a message link too). */
export function ApplySucPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <PageFrame>
      <Result
        status="success"
        title={t('applySuc.title')}
        description={t('applySuc.description')}
      />
      <PageActions>
        <Button block color="primary" onClick={() => inBackground(navigate('/order/cashpay/list'))}>
          {t('applySuc.orders')}
        </Button>
        <Button block onClick={() => inBackground(navigate('/', { replace: true }))}>
          {t('applySuc.home')}
        </Button>
      </PageActions>
    </PageFrame>
  )
}
