import { useTranslation } from 'react-i18next'
import { CategoryGrid } from '../../../components/category-grid'
import { EmptyState } from '../../../components/empty-state'
import { PageFrame } from '../../../components/page-frame'
import { Section } from '../../../components/section'

export function CategoryPage() {
  const { t } = useTranslation()
  return (
    <PageFrame>
      <CategoryGrid />
      <Section title={t('home.mall')}>
        <EmptyState description={t('empty.category')} />
      </Section>
    </PageFrame>
  )
}
