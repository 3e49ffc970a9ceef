import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function BankAddressDetailPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.bankAddressDetail')} />
}
