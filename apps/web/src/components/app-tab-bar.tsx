import { TabBar } from 'antd-mobile'
import { AppOutline, UnorderedListOutline, UserOutline } from 'antd-mobile-icons'
import { useTranslation } from '../lib/i18n'
import { useLocation, useNavigate } from 'react-router'
import styles from './app-tab-bar.module.css'
import { inBackground } from '../lib/background'

const TABS = [
  { key: '/', icon: <AppOutline />, label: 'tabs.home' },
  { key: '/category', icon: <UnorderedListOutline />, label: 'tabs.category' },
  { key: '/ucenter', icon: <UserOutline />, label: 'tabs.ucenter' },
] as const

export function AppTabBar() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const active = TABS.find((tab) => tab.key.toLowerCase() === pathname.toLowerCase())?.key ?? null
  return (
    <TabBar
      className={styles.tabBar}
      activeKey={active}
      onChange={(key) => inBackground(navigate(key))}
      safeArea
    >
      {TABS.map((tab) => (
        <TabBar.Item key={tab.key} icon={tab.icon} title={t(tab.label)} />
      ))}
    </TabBar>
  )
}
