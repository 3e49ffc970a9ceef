import { formatFen } from '@numisma/contracts/money'
import type { UserStatistics } from '@numisma/contracts/user'
import { ProgressBar } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import styles from './recharge-summary.module.css'

/**
 * The deposit and what it gives (DESIGN §4's names): the deposit placed with us, the bidding quota
 * it makes, how much of that open bids and unpaid won lots hold, and the balance beside it.
 */
export function RechargeSummary({ user }: { user: UserStatistics }) {
  const { t } = useTranslation()
  const money = (fen: number) => `¥${formatFen(fen)}`
  const left = Math.max(0, user.quota - user.exposure)
  const used = user.quota > 0 ? Math.min(100, (user.exposure / user.quota) * 100) : 0
  return (
    <section className={styles.card} data-testid="recharge-summary">
      <div className={styles.deposit}>
        <span className={styles.label}>{t('recharge.deposit')}</span>
        <span className={styles.big} data-testid="recharge-deposit" data-fen={user.deposit}>
          {money(user.deposit)}
        </span>
      </div>
      <ProgressBar percent={used} className={styles.bar} />
      <dl className={styles.figures}>
        <div>
          <dt>{t('recharge.quota')}</dt>
          <dd data-testid="recharge-quota" data-fen={user.quota}>
            {money(user.quota)}
          </dd>
        </div>
        <div>
          <dt>{t('recharge.exposure')}</dt>
          <dd data-testid="recharge-exposure" data-fen={user.exposure}>
            {money(user.exposure)}
          </dd>
        </div>
        <div>
          <dt>{t('recharge.available')}</dt>
          <dd data-fen={left}>{money(left)}</dd>
        </div>
      </dl>
      <p className={styles.balance}>
        {t('recharge.balance')}
        <b data-testid="recharge-balance" data-fen={user.balance}>
          {money(user.balance)}
        </b>
      </p>
    </section>
  )
}
