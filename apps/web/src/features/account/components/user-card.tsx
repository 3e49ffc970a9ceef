import { Avatar, ProgressBar, Skeleton } from 'antd-mobile'
import { formatFen } from '@numisma/contracts/money'
import { maskMobile } from '@numisma/contracts/passport'
import type { UserStatistics } from '@numisma/contracts/user'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import styles from './user-card.module.css'

const SKELETON = { '--width': '4.5rem', '--height': '1.125rem', opacity: 0.35 }

export interface UserCardProps {
  user: UserStatistics | undefined
  /** Shown while loading or when the call failed (from the readable cookies). */
  fallbackName: string
  fallbackMobile: string
}

/**
 * Who is signed in and their money (DESIGN §4's names): the balance they can spend or withdraw,
 * the deposit placed with us, and the bidding quota it gives with how much open bids and unpaid
 * orders hold of it.
 */
export function UserCard({ user, fallbackName, fallbackMobile }: UserCardProps) {
  const { t } = useTranslation()
  const name = user?.display ?? fallbackName
  const mobile = user?.mobile ?? fallbackMobile
  const money = (fen: number) => `${t('ucenter.yuan')}${formatFen(fen)}`
  const left = user ? Math.max(0, user.quota - user.exposure) : 0
  const used = user && user.quota > 0 ? Math.min(100, (user.exposure / user.quota) * 100) : 0
  return (
    <div className={styles.card}>
      <div className={styles.identity}>
        <Avatar
          src={user?.avatar ?? ''}
          className={styles.avatar}
          style={{ '--size': '3.25rem', '--border-radius': '50%' }}
        />
        <div>
          <div className={styles.name}>{name || t('ucenter.notSignedIn')}</div>
          <div className={styles.mobile}>{mobile ? maskMobile(mobile) : ''}</div>
        </div>
      </div>
      <div className={styles.money}>
        <Link to="/account/withdraw" className={styles.cell} data-testid="ucenter-balance">
          <span className={styles.value} data-fen={user?.balance}>
            {user ? money(user.balance) : <Skeleton style={SKELETON} />}
          </span>
          <span className={styles.label}>{t('ucenter.balance')}</span>
        </Link>
        <Link to="/account/quotaRecharge" className={styles.cell} data-testid="ucenter-deposit">
          <span className={styles.value} data-fen={user?.deposit}>
            {user ? money(user.deposit) : <Skeleton style={SKELETON} />}
          </span>
          <span className={styles.label}>{t('ucenter.deposit')}</span>
        </Link>
      </div>
      <Link to="/myBuy" className={styles.quota} data-testid="ucenter-quota">
        <span className={styles.quotaHead}>
          <span className={styles.label}>{t('ucenter.quotaLeft')}</span>
          <span className={styles.quotaLeft} data-fen={user ? left : undefined}>
            {user ? money(left) : <Skeleton style={SKELETON} />}
          </span>
        </span>
        <ProgressBar percent={used} className={styles.bar} />
        <span className={styles.quotaFoot}>
          {user ? (
            <>
              <span data-testid="ucenter-quota-total" data-fen={user.quota}>
                {t('ucenter.quota')} {money(user.quota)}
              </span>
              <span data-testid="ucenter-exposure" data-fen={user.exposure}>
                {t('ucenter.exposure')} {money(user.exposure)}
              </span>
            </>
          ) : null}
        </span>
      </Link>
    </div>
  )
}
