import { BankcardOutline, PayCircleOutline, UploadOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import styles from './ucenter-wallet.module.css'

const ACTIONS = [
  { to: '/account/quotaRecharge', key: 'recharge', icon: <PayCircleOutline /> },
  { to: '/account/withdraw', key: 'withdraw', icon: <UploadOutline /> },
  { to: '/account/bankAddress', key: 'remit', icon: <BankcardOutline /> },
] as const

/** The money actions under the card: recharge the deposit, withdraw, remit by bank transfer. */
export function UcenterWallet() {
  const { t } = useTranslation()
  return (
    <nav className={styles.wallet}>
      {ACTIONS.map((action) => (
        <Link
          key={action.key}
          to={action.to}
          className={styles.action}
          data-testid={`wallet-${action.key}`}
        >
          <span className={styles.icon}>{action.icon}</span>
          <span>{t(`ucenter.wallet.${action.key}`)}</span>
        </Link>
      ))}
    </nav>
  )
}
