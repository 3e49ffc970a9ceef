import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function CashpayListPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.cashpayList')} />
}
