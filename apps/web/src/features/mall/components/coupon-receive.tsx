import { useRef, useState } from 'react'
import type { MallCoupon } from '@numisma/contracts/mall'
import { Button, Popup } from 'antd-mobile'
import { RightOutline } from 'antd-mobile-icons'
import { useTranslation } from '../../../lib/i18n'
import { useLocation } from 'react-router'
import { CouponTicket } from '../../../components/coupon-ticket'
import { ItemCard } from '../../../components/item-detail'
import { inBackground } from '../../../lib/background'
import { readSession } from '../../../lib/cookies'
import { startSignIn } from '../../../lib/in-app/sign-in'
import { useMallCoupons, useReceiveCoupon } from '../../../lib/mall/coupons'
import { oneAtATime } from '../../../lib/one-at-a-time'
import { showSuccess } from '../../../lib/toast'
import styles from './coupon-receive.module.css'
import { receiveState } from './receive-state'

/**
 * The 领券 row of a mall item page and its popup: the coupons valid for the item, each with a
 * receive button. Shown only when the item has coupons (nothing to promise otherwise).
 */
export function CouponReceive({ productNo }: { productNo: string }) {
  const { t } = useTranslation()
  const coupons = useMallCoupons(productNo)
  const [open, setOpen] = useState(false)
  const list = coupons.data ?? []
  if (list.length === 0) return null
  return (
    <ItemCard className={styles.card}>
      <button
        type="button"
        className={styles.entry}
        data-testid="coupons-entry"
        onClick={() => setOpen(true)}
      >
        <span className={styles.label}>{t('mall.couponsEntry')}</span>
        <span className={styles.chips}>
          {list.slice(0, 3).map((coupon) => (
            <span key={coupon.id} className={styles.chip}>
              {coupon.title}
            </span>
          ))}
        </span>
        <RightOutline className={styles.chevron} />
      </button>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        onClose={() => setOpen(false)}
        showCloseButton
        bodyClassName={styles.popup}
      >
        <h2 className={styles.popupTitle}>{t('mall.couponsTitle')}</h2>
        <ul className={styles.list} data-testid="mall-coupons">
          {list.map((coupon) => (
            <li key={coupon.id}>
              <ReceiveTicket coupon={coupon} />
            </li>
          ))}
        </ul>
      </Popup>
    </ItemCard>
  )
}

function ReceiveTicket({ coupon }: { coupon: MallCoupon }) {
  const { t } = useTranslation()
  const location = useLocation()
  const receive = useReceiveCoupon()
  const state = receiveState(coupon)
  const busy = receive.isPending
  // A double tap must receive one coupon: isPending is not re-rendered between two quick taps.
  const receiving = useRef(false)

  const onReceive = async () => {
    if (readSession() === null) {
      startSignIn(location.pathname + location.search)
      return
    }
    await oneAtATime(receiving, async () => {
      try {
        await receive.mutateAsync(coupon.id)
        showSuccess(t('coupon.receivedToast'))
      } catch {
        // request() has toasted the server's reason (COUPON_GONE, COUPON_LIMIT); the lists refetch.
      }
    })
  }

  const canReceive = state === 'receive' || state === 'again'
  return (
    <CouponTicket
      terms={coupon}
      muted={state === 'gone'}
      data-testid={`mall-coupon-${coupon.id}`}
      aside={
        <>
          <Button
            size="mini"
            color="primary"
            fill={canReceive ? 'solid' : 'outline'}
            shape="rounded"
            className={styles.receive}
            data-testid={`receive-coupon-${coupon.id}`}
            data-state={state}
            disabled={!canReceive}
            loading={busy}
            onClick={() => {
              inBackground(onReceive())
            }}
          >
            {state === 'receive'
              ? t('coupon.receive')
              : state === 'again'
                ? t('coupon.receiveMore')
                : state === 'received'
                  ? t('coupon.received')
                  : state === 'gone'
                    ? t('coupon.gone')
                    : t('coupon.receive')}
          </Button>
          {coupon.left > 0 ? (
            <span className={styles.left}>{t('coupon.left', { count: coupon.left })}</span>
          ) : null}
        </>
      }
    />
  )
}
