import { useTranslation } from 'react-i18next'
import { EmptyPage } from '../../../components/empty-page'

export function ProductDetailPage() {
  const { t } = useTranslation()
  return <EmptyPage description={t('empty.productDetail')} />
}
