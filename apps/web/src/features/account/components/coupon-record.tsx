import type { ReactNode } from 'react'
import type { UserCouponRecord } from '@numisma/contracts/mall'
import { formatChinaDate } from '@numisma/contracts/dates'
import { useTranslation } from '../../../lib/i18n'
import { Link } from 'react-router'
import { couponFigure, couponSummary } from '../../../lib/coupon-summary'
import styles from './coupon-record.module.css'

/** Where 去使用 leads: the mall's item list (a coupon's items are judged at the buy bar). */
export const MALL_HREF = '/categoryDetail?type=mall'

/**
 * A coupon the caller holds, as a ticket: what it saves, its title, scope and validity, and what
 * can be done with it now — use it, see the unpaid order that holds it, or only read that it is
 * used or expired.
 */
export function CouponRecord({ record }: { record: UserCouponRecord }) {
  const { t } = useTranslation()
  const spent = record.status === 'used' || record.status === 'expired'
  return (
    <div
      className={spent ? `${styles.ticket} ${styles.spent}` : styles.ticket}
      data-testid={`user-coupon-${record.userCouponId}`}
      data-coupon-id={record.couponId}
      data-status={record.status}
    >
      <div className={styles.stub}>
        <span className={styles.figure}>{couponFigure(record, t)}</span>
      </div>
      <div className={styles.body}>
        <span className={styles.title}>{record.title}</span>
        <span className={styles.rule}>
          <span data-testid="coupon-summary">{couponSummary(record, t)}</span>
          <span className={styles.scope}>{t(`myCoupon.scope.${record.scope}`)}</span>
        </span>
        <span className={styles.meta}>
          {t('myCoupon.validUntil', {
            time: formatChinaDate(record.endsAt, 'YYYY-MM-DD HH:mm'),
          })}
        </span>
        {record.status === 'locked' ? (
          <span className={styles.meta}>{t('myCoupon.lockedHint')}</span>
        ) : null}
        {record.status === 'used' && record.usedAt ? (
          <span className={styles.meta}>
            {t('myCoupon.usedAt', { time: formatChinaDate(record.usedAt, 'YYYY-MM-DD HH:mm') })}
          </span>
        ) : null}
      </div>
      <div className={styles.aside}>
        <CouponAction record={record} />
      </div>
    </div>
  )
}

function CouponAction({ record }: { record: UserCouponRecord }): ReactNode {
  const { t } = useTranslation()
  switch (record.status) {
    case 'usable':
      return (
        <Link to={MALL_HREF} className={styles.use} data-testid="coupon-use">
          {t('myCoupon.use')}
        </Link>
      )
    case 'locked':
      return (
        <Link to="/order/list?tab=pay" className={styles.locked} data-testid="coupon-locked">
          <span>{t('myCoupon.locked')}</span>
          <span className={styles.viewOrder}>{t('myCoupon.viewOrder')} ›</span>
        </Link>
      )
    case 'used':
      return <span className={styles.stamp}>{t('myCoupon.used')}</span>
    case 'expired':
      return <span className={styles.stamp}>{t('myCoupon.expired')}</span>
  }
}
