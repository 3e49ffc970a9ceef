import { Avatar, Skeleton } from 'antd-mobile'
import { formatFen } from '@numisma/contracts/money'
import { maskMobile } from '@numisma/contracts/passport'
import type { UserStatistics } from '@numisma/contracts/user'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

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
    <div className="user-card">
      <div className="user-identity">
        <Avatar
          src={user?.avatar ?? ''}
          className="user-avatar"
          style={{ '--size': '3.25rem', '--border-radius': '50%' }}
        />
        <div>
          <div className="user-name">{name || t('ucenter.notSignedIn')}</div>
          <div className="user-mobile">{mobile ? maskMobile(mobile) : ''}</div>
        </div>
      </div>
      <div className="user-money">
        <Link to="/account/pay" className="user-money-cell">
          <span className="user-money-value">
            {user ? money(user.balance) : <Skeleton style={SKELETON} />}
          </span>
          <span className="user-money-label">{t('ucenter.balance')}</span>
        </Link>
        <Link to="/account/quotaRecharge" className="user-money-cell">
          <span className="user-money-value">
            {user ? money(user.quota) : <Skeleton style={SKELETON} />}
          </span>
          <span className="user-money-label">{t('ucenter.quota')}</span>
        </Link>
      </div>
    </div>
  )
}
