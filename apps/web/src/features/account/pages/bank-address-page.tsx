import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function BankAddressPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.bankAddress')} />
}
