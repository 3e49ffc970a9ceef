import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function AddressListPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.addressList')} />
}
