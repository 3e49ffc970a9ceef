import { Badge } from 'antd-mobile'
import { CheckCircleOutline, PayCircleOutline, SendOutline, TruckOutline } from 'antd-mobile-icons'
import type { UserStatistics } from '@numisma/contracts/user'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import { Section } from '../../../components/section'
import styles from './order-shortcuts.module.css'

export function OrderShortcuts({ counts }: { counts: UserStatistics['counts'] | undefined }) {
  const { t } = useTranslation()
  const groups = [
    { tab: 'pay', icon: <PayCircleOutline />, count: counts?.pendingPayment },
    { tab: 'ship', icon: <SendOutline />, count: counts?.waitingToShip },
    { tab: 'receive', icon: <TruckOutline />, count: counts?.waitingToReceive },
    { tab: 'done', icon: <CheckCircleOutline />, count: undefined },
  ] as const
  return (
    <Section
      title={t('ucenter.orders')}
      more={{ to: '/myOrder?tab=all', label: t('ucenter.allOrders') }}
    >
      <div className={styles.shortcuts}>
        {groups.map((g) => (
          <Link key={g.tab} to={`/myOrder?tab=${g.tab}`} className={styles.shortcut}>
            <Badge content={g.count ? g.count : null}>
              <span className={styles.icon}>{g.icon}</span>
            </Badge>
            <span>{t(`orderTabs.${g.tab}`)}</span>
          </Link>
        ))}
      </div>
    </Section>
  )
}
