import { Tabs } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { PageFrame } from '../../../components/page-frame'

const TABS = ['bidding', 'won', 'lost'] as const
type BuyTab = (typeof TABS)[number]

export function MyBuyPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const tab: BuyTab = TABS.find((k) => k === params.get('tab')) ?? 'bidding'
  return (
    <PageFrame>
      <Tabs activeKey={tab} onChange={(key) => setParams({ tab: key }, { replace: true })}>
        {TABS.map((key) => (
          <Tabs.Tab key={key} title={t(`buyTabs.${key}`)} />
        ))}
      </Tabs>
      <EmptyState description={t('empty.myBuy')} />
    </PageFrame>
  )
}
