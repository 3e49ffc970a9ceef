import type { ReactNode } from 'react'
import type { MallCoupon } from '@numisma/contracts/mall'
import { formatChinaDate } from '@numisma/contracts/dates'
import { useTranslation } from '../lib/i18n'
import { couponFigure, couponSummary } from '../lib/coupon-summary'
import styles from './coupon-ticket.module.css'

/** The terms every coupon view shows (a coupon to receive, one to use, one held). */
export type CouponTerms = Pick<
  MallCoupon,
  'title' | 'kind' | 'threshold' | 'amount' | 'percent' | 'cap' | 'endsAt' | 'scope'
>

export interface CouponTicketProps {
  terms: CouponTerms
  /** The right-hand side: a receive button, a radio mark. */
  aside?: ReactNode
  /** Greyed out (none left, already used). */
  muted?: boolean
  className?: string
  'data-testid'?: string
}

/** One coupon as a ticket: the saving on the left, title, conditions and validity beside it. */
export function CouponTicket({
  terms,
  aside,
  muted = false,
  className,
  ...rest
}: CouponTicketProps) {
  const { t } = useTranslation()
  const classes = [styles.ticket, muted ? styles.muted : '', className ?? ''].join(' ').trim()
  return (
    <div className={classes} data-testid={rest['data-testid']}>
      <div className={styles.value}>
        <span className={styles.figure}>{couponFigure(terms, t)}</span>
        <span className={styles.condition}>{couponSummary(terms, t)}</span>
      </div>
      <div className={styles.body}>
        <span className={styles.title}>{terms.title}</span>
        <span className={styles.meta}>
          {terms.scope === 'all' ? t('coupon.scopeAll') : t('coupon.scopeLimited')}
        </span>
        <span className={styles.meta}>
          {t('coupon.validUntil', { date: formatChinaDate(terms.endsAt, 'YYYY-MM-DD HH:mm') })}
        </span>
      </div>
      {aside ? <div className={styles.aside}>{aside}</div> : null}
    </div>
  )
}
