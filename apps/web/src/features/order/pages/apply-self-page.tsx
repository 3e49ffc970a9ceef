import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function ApplySelfPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.applySelf')} />
}
