import { Tabs } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { PageFrame } from '../../../components/page-frame'
import { ORDER_TABS, parseOrderTab } from '../components/order-tabs'

export function MyOrderPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const tab = parseOrderTab(params.get('tab'))
  return (
    <PageFrame>
      <Tabs activeKey={tab} onChange={(key) => setParams({ tab: key }, { replace: true })}>
        {ORDER_TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`orderTabs.${key}`)} />
        ))}
      </Tabs>
      <EmptyState description={t('empty.myOrder')} />
    </PageFrame>
  )
}
