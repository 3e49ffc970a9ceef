import { useState } from 'react'
import { SearchBar } from 'antd-mobile'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { inBackground } from '../../../lib/background'

/** Brand line and the search bar; a search opens the results screen (/categoryDetail). */
export function HomeHeader() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [keyword, setKeyword] = useState('')

  const search = (value: string): void => {
    const text = value.trim()
    if (text === '') return
    inBackground(
      navigate(
        `/categoryDetail?${new URLSearchParams({ type: 'auction', keyword: text }).toString()}`,
      ),
    )
  }

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
      <div className="home-search" role="search">
        <SearchBar
          placeholder={t('home.search')}
          value={keyword}
          onChange={setKeyword}
          onSearch={search}
        />
      </div>
    </div>
  )
}
