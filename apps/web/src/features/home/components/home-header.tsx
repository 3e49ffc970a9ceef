import { useState } from 'react'
import { SearchBar } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { BrandLogo } from '../../../components/brand-logo'
import styles from './home-header.module.css'
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
    <div className={styles.header}>
      <div className={styles.brand}>
        <BrandLogo />
        <div>
          <h1 className={styles.name}>{t('brand.name')}</h1>
          <p className={styles.slogan}>{t('brand.slogan')}</p>
        </div>
      </div>
      <div className={styles.search} role="search" data-testid="home-search">
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
