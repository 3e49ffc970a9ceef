import { SearchBar } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'

/** Brand line and search; searching opens the category page until search arrives. */
export function HomeHeader() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <div className="home-header">
      <div className="brand">
        <span className="brand-logo" aria-hidden="true">
          泉
        </span>
        <div className="brand-text">
          <h1 className="brand-name">{t('brand.name')}</h1>
          <p className="brand-slogan">{t('brand.slogan')}</p>
        </div>
      </div>
      <div className="home-search" onClick={() => void navigate('/category')}>
        <SearchBar placeholder={t('home.search')} onFocus={(e) => e.currentTarget.blur()} />
      </div>
    </div>
  )
}
