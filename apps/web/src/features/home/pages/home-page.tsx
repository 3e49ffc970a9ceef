import { NoticeBar } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CategoryGrid } from '../../../components/category-grid'
import { EmptyState } from '../../../components/empty-state'
import { PageFrame } from '../../../components/page-frame'
import { Section } from '../../../components/section'
import { HomeHeader } from '../components/home-header'

export function HomePage() {
  const { t } = useTranslation()
  return (
    <PageFrame header={<HomeHeader />} bodyClassName="home-body">
      <div className="home-banner" role="img" aria-label={t('brand.name')}>
        <div className="home-banner-text">
          <strong>{t('brand.name')}</strong>
          <span>{t('brand.slogan')}</span>
        </div>
      </div>
      <Link to="/rules" className="home-notice">
        <NoticeBar content={t('rules.intro')} color="alert" extra={t('home.rules')} />
      </Link>
      <CategoryGrid />
      <Section title={t('home.specials')}>
        <EmptyState description={t('home.emptySpecials')} />
      </Section>
      <Section title={t('home.buying')}>
        <EmptyState description={t('home.emptyBuying')} />
      </Section>
      <Section title={t('home.mall')}>
        <EmptyState description={t('home.emptyMall')} />
      </Section>
    </PageFrame>
  )
}
