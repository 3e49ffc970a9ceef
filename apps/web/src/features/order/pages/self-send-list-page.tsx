import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function SelfSendListPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.selfSendList')} />
}
