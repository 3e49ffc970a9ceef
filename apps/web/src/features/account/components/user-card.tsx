import { Avatar, Skeleton } from 'antd-mobile'
import { formatFen } from '@numisma/contracts/money'
import { maskMobile } from '@numisma/contracts/passport'
import type { UserStatistics } from '@numisma/contracts/user'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import styles from './user-card.module.css'

const SKELETON = { '--width': '4.5rem', '--height': '1.125rem', opacity: 0.35 }

export interface UserCardProps {
  user: UserStatistics | undefined
  /** Shown while loading or when the call failed (from the readable cookies). */
  fallbackName: string
  fallbackMobile: string
}

export function UserCard({ user, fallbackName, fallbackMobile }: UserCardProps) {
  const { t } = useTranslation()
  const name = user?.display ?? fallbackName
  const mobile = user?.mobile ?? fallbackMobile
  // A field the server does not send yet is shown as a dash, never as a made-up zero.
  const money = (fen: number | undefined): string =>
    fen === undefined ? '—' : `${t('ucenter.yuan')}${formatFen(fen)}`
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
        <Link to="/account/pay" className={styles.cell}>
          <span className={styles.value}>
            {user ? money(user.balance) : <Skeleton style={SKELETON} />}
          </span>
          <span className={styles.label}>{t('ucenter.balance')}</span>
        </Link>
        <Link to="/account/quotaRecharge" className={styles.cell}>
          <span className={styles.value}>
            {user ? money(user.deposit) : <Skeleton style={SKELETON} />}
          </span>
          <span className={styles.label}>{t('ucenter.deposit')}</span>
        </Link>
        {/* What a collector can still bid: the quota (deposit × 10) less what open lots hold. */}
        <Link to="/myBuy" className={styles.cell}>
          <span className={styles.value}>
            {user ? money(Math.max(0, user.quota - user.exposure)) : <Skeleton style={SKELETON} />}
          </span>
          <span className={styles.label}>{t('ucenter.quotaLeft')}</span>
        </Link>
      </div>
    </div>
  )
}
