import { useState } from 'react'
import type { UsableCoupon } from '@numisma/contracts/mall'
import { formatFen } from '@numisma/contracts/money'
import { Popup } from 'antd-mobile'
import { CheckCircleFill, RightOutline } from 'antd-mobile-icons'
import { useTranslation } from '../lib/i18n'
import { savingFor, type CouponChoice } from '../lib/mall/buy'
import { CouponTicket } from './coupon-ticket'
import styles from './coupon-select.module.css'

export interface CouponSelectProps {
  /** The caller's coupons usable for this order, best first; undefined until the list arrives. */
  coupons: readonly UsableCoupon[] | undefined
  /** The coupon the order uses now (none: null). */
  selected: UsableCoupon | null
  /** The goods total the savings are worked out on. */
  goods: number
  onChoose: (choice: CouponChoice) => void
  /** Set when the list failed to load (the toast said why): the row offers to load it again. */
  onRetry?: (() => unknown) | undefined
  className?: string
}

/**
 * The 优惠券 row of an order (the item page's buy bar, the confirm page): what the chosen coupon
 * saves, and a popup to pick another or none.
 */
export function CouponSelect({
  coupons,
  selected,
  goods,
  onChoose,
  onRetry,
  className,
}: CouponSelectProps) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const count = coupons?.length ?? 0
  const saving = selected ? savingFor(selected, goods) : 0

  const choose = (choice: CouponChoice) => {
    onChoose(choice)
    setOpen(false)
  }

  return (
    <>
      <button
        type="button"
        className={className ? `${styles.row} ${className}` : styles.row}
        data-testid="coupon-row"
        data-user-coupon-id={selected?.userCouponId ?? ''}
        data-saving={saving}
        disabled={count === 0 && !onRetry}
        onClick={() => (onRetry ? void onRetry() : setOpen(true))}
      >
        <span className={styles.label}>{t('coupon.label')}</span>
        <span className={styles.value}>
          {onRetry ? (
            <span className={styles.muted}>{t('errors.loadFailed')}</span>
          ) : coupons === undefined ? (
            <span className={styles.muted}>{t('common.loading')}</span>
          ) : count === 0 ? (
            <span className={styles.muted}>{t('coupon.noneUsable')}</span>
          ) : selected ? (
            <>
              <span className={styles.title}>{selected.title}</span>
              <span className={styles.saving}>
                {t('coupon.saving', { amount: `¥${formatFen(saving)}` })}
              </span>
            </>
          ) : (
            <>
              <span className={styles.muted}>{t('coupon.none')}</span>
              <span className={styles.count}>{t('coupon.usableCount', { count })}</span>
            </>
          )}
        </span>
        {count > 0 || onRetry ? <RightOutline className={styles.chevron} /> : null}
      </button>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        onClose={() => setOpen(false)}
        showCloseButton
        bodyClassName={styles.popup}
      >
        <h2 className={styles.popupTitle}>{t('coupon.pickerTitle')}</h2>
        <ul className={styles.options} role="radiogroup" aria-label={t('coupon.pickerTitle')}>
          {(coupons ?? []).map((coupon) => {
            const on = selected?.userCouponId === coupon.userCouponId
            return (
              <li key={coupon.userCouponId}>
                <button
                  type="button"
                  role="radio"
                  aria-checked={on}
                  className={styles.option}
                  data-testid={`coupon-option-${coupon.userCouponId}`}
                  onClick={() => choose({ kind: 'coupon', id: coupon.userCouponId })}
                >
                  <CouponTicket
                    terms={coupon}
                    aside={
                      <span className={styles.pick}>
                        <span className={styles.saving}>
                          {t('coupon.saving', {
                            amount: `¥${formatFen(savingFor(coupon, goods))}`,
                          })}
                        </span>
                        <Mark on={on} />
                      </span>
                    }
                  />
                </button>
              </li>
            )
          })}
          <li>
            <button
              type="button"
              role="radio"
              aria-checked={selected === null}
              className={`${styles.option} ${styles.none}`}
              data-testid="coupon-none"
              onClick={() => choose({ kind: 'none' })}
            >
              <span>{t('coupon.none')}</span>
              <Mark on={selected === null} />
            </button>
          </li>
        </ul>
      </Popup>
    </>
  )
}

function Mark({ on }: { on: boolean }) {
  return on ? (
    <CheckCircleFill className={`${styles.mark} ${styles.markOn}`} />
  ) : (
    <span className={styles.mark} />
  )
}
