import { Button, Dialog, List } from 'antd-mobile'
import {
  BankcardOutline,
  CouponOutline,
  EnvironmentOutline,
  HeartOutline,
  HistogramOutline,
  LockOutline,
  PayCircleOutline,
  ClockCircleOutline,
} from 'antd-mobile-icons'
import { COOKIE } from '@numisma/contracts/cookies'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { browserCookies } from '../../../lib/cookies'
import { PageFrame } from '../../../components/page-frame'
import { useUserStatistics } from '../api/get-user-statistics'
import { logout } from '../api/logout'
import { LanguageCell } from '../components/language-cell'
import { OrderShortcuts } from '../components/order-shortcuts'
import { UserCard } from '../components/user-card'
import { PageActions } from '../../../components/page-actions'
import styles from './ucenter-page.module.css'
import { inBackground } from '../../../lib/background'

const MENU = [
  { to: '/myBuy', key: 'myBuy', icon: <HistogramOutline /> },
  { to: '/myEntrust', key: 'myEntrust', icon: <ClockCircleOutline /> },
  { to: '/myLike', key: 'myLike', icon: <HeartOutline /> },
  { to: '/myCoupon', key: 'myCoupon', icon: <CouponOutline /> },
  { to: '/address/list', key: 'address', icon: <EnvironmentOutline /> },
  { to: '/account/quotaRecharge', key: 'quotaRecharge', icon: <PayCircleOutline /> },
  { to: '/account/bankAddress', key: 'bankAddress', icon: <BankcardOutline /> },
  { to: '/account/setPayPwd', key: 'setPayPwd', icon: <LockOutline /> },
] as const

export function UcenterPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { data: user } = useUserStatistics()

  const signOut = async (): Promise<void> => {
    const ok = await Dialog.confirm({ content: t('ucenter.logoutConfirm') })
    if (!ok) return
    await logout()
    window.location.replace('/')
  }

  return (
    <PageFrame bodyClassName={styles.body}>
      <UserCard
        user={user}
        fallbackName={browserCookies.get(COOKIE.display) ?? ''}
        fallbackMobile={browserCookies.get(COOKIE.mobile) ?? ''}
      />
      <OrderShortcuts counts={user?.counts} />
      <List className={styles.menu}>
        {MENU.map((item) => {
          const extra =
            item.key === 'myBuy'
              ? user?.counts.bidding
              : item.key === 'myLike'
                ? user?.counts.watching
                : item.key === 'myEntrust'
                  ? user?.counts.entrusted
                  : item.key === 'myCoupon' && user?.counts.coupons
                    ? t('ucenter.couponsUsable', { count: user.counts.coupons })
                    : undefined
          return (
            <List.Item
              key={item.key}
              prefix={item.icon}
              extra={extra ? extra : undefined}
              onClick={() => inBackground(navigate(item.to))}
            >
              {t(`ucenter.menu.${item.key}`)}
            </List.Item>
          )
        })}
      </List>
      <List className={styles.menu}>
        <LanguageCell />
      </List>
      <PageActions>
        <Button block fill="outline" color="danger" onClick={() => inBackground(signOut())}>
          {t('ucenter.logout')}
        </Button>
      </PageActions>
    </PageFrame>
  )
}
