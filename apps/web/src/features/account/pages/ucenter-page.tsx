import { Badge, Button, Dialog, List } from 'antd-mobile'
import {
  BellOutline,
  CouponOutline,
  EnvironmentOutline,
  HeartOutline,
  HistogramOutline,
  LockOutline,
  MessageOutline,
  ClockCircleOutline,
} from 'antd-mobile-icons'
import type { UserStatistics } from '@numisma/contracts/user'
import type { ReactNode } from 'react'
import { COOKIE } from '@numisma/contracts/cookies'
import { useTranslation, type TFunction } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { browserCookies } from '../../../lib/cookies'
import { PageFrame } from '../../../components/page-frame'
import { useUserStatistics } from '../api/get-user-statistics'
import { logout } from '../api/logout'
import { LanguageCell } from '../components/language-cell'
import { OrderShortcuts } from '../components/order-shortcuts'
import { UcenterWallet } from '../components/ucenter-wallet'
import { UserCard } from '../components/user-card'
import { PageActions } from '../../../components/page-actions'
import styles from './ucenter-page.module.css'
import { inBackground } from '../../../lib/background'

const MENU = [
  { to: '/notices', key: 'notices', icon: <BellOutline /> },
  // Issue 11: the customer-service chat, with the agent's unread messages.
  { to: '/chat', key: 'chat', icon: <MessageOutline /> },
  { to: '/myBuy', key: 'myBuy', icon: <HistogramOutline /> },
  { to: '/myEntrust', key: 'myEntrust', icon: <ClockCircleOutline /> },
  { to: '/myLike', key: 'myLike', icon: <HeartOutline /> },
  { to: '/myCoupon', key: 'myCoupon', icon: <CouponOutline /> },
  { to: '/address/list', key: 'address', icon: <EnvironmentOutline /> },
  { to: '/account/setPayPwd', key: 'setPayPwd', icon: <LockOutline /> },
] as const

type MenuKey = (typeof MENU)[number]['key']

/**
 * What a menu row says on its right: a counter, the unread notices or chat messages (a badge), the
 * usable coupons, whether a password is set.
 */
function menuExtra(key: MenuKey, user: UserStatistics | undefined, t: TFunction): ReactNode {
  if (!user) return undefined
  switch (key) {
    case 'notices':
      return user.counts.unreadNotices ? <Badge content={user.counts.unreadNotices} /> : undefined
    case 'chat':
      return user.counts.unreadChat ? <Badge content={user.counts.unreadChat} /> : undefined
    case 'myBuy':
      return user.counts.bidding || undefined
    case 'myLike':
      return user.counts.watching || undefined
    case 'myEntrust':
      return user.counts.entrusted || undefined
    case 'myCoupon':
      return user.counts.coupons
        ? t('ucenter.couponsUsable', { count: user.counts.coupons })
        : undefined
    case 'setPayPwd':
      return user.payPasswordSet ? t('ucenter.payPwdSet') : t('ucenter.payPwdUnset')
    case 'address':
      return undefined
  }
}

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
      <UcenterWallet />
      <OrderShortcuts counts={user?.counts} />
      <List className={styles.menu}>
        {MENU.map((item) => (
          <List.Item
            key={item.key}
            prefix={item.icon}
            extra={
              <span data-testid={`menu-${item.key}-extra`}>{menuExtra(item.key, user, t)}</span>
            }
            data-testid={`menu-${item.key}`}
            onClick={() => inBackground(navigate(item.to))}
          >
            {t(`ucenter.menu.${item.key}`)}
          </List.Item>
        ))}
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
