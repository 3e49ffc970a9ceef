import { useState } from 'react'
import type { MallItemDetail } from '@numisma/contracts/catalog'
import { formatFen } from '@numisma/contracts/money'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { ActionBarButton } from '../../../components/action-bar-button'
import { CouponSelect } from '../../../components/coupon-select'
import { LabelledStepper } from '../../../components/labelled-stepper'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { readSession } from '../../../lib/cookies'
import {
  BEST_COUPON,
  buyLimits,
  chosenCoupon,
  clampQuantity,
  couponChoiceParam,
  orderTotals,
  type CouponChoice,
} from '../../../lib/mall/buy'
import { useUsableCoupons } from '../../../lib/mall/coupons'
import { MallWatchButton } from './mall-watch-button'
import styles from './buy-bar.module.css'

/** /order/confirm for this choice; the coupon parameter is left out while the best one stands. */
export function confirmPath(productNo: string, quantity: number, choice: CouponChoice): string {
  const params = new URLSearchParams({ productNo, quantity: String(quantity) })
  const coupon = couponChoiceParam(choice)
  if (coupon !== undefined) params.set('userCouponId', coupon)
  return `/order/confirm?${params.toString()}`
}

/**
 * The sticky buy bar of a mall item (DESIGN §7): the coupon that applies (the best pre-selected,
 * another or none from the picker), a quantity within stock and the buyer's limit, the total, the
 * watch heart and 立即购买 on to /order/confirm. A guest's tap reaches the sign-in guard there.
 */
export function BuyBar({ item }: { item: MallItemDetail }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signedIn = readSession() !== null
  const limits = buyLimits(item)
  const [wanted, setWanted] = useState(1)
  const [choice, setChoice] = useState<CouponChoice>(BEST_COUPON)
  const quantity = clampQuantity(wanted, limits.max)
  const buyable = limits.block === null
  const usable = useUsableCoupons(item.productNo, quantity, signedIn && buyable)
  const coupon = usable.data ? chosenCoupon(choice, usable.data) : null
  const totals = orderTotals(item.price, quantity, coupon)
  const allowance =
    item.limitPerUser === null ? null : Math.max(0, item.limitPerUser - item.boughtByMe)

  return (
    <div className={styles.bar} data-testid="buy-bar" data-product-no={item.productNo}>
      {buyable ? (
        <>
          {signedIn ? (
            <CouponSelect
              coupons={usable.data}
              selected={coupon}
              goods={totals.goods}
              onChoose={setChoice}
              onRetry={usable.isError && !usable.data ? () => usable.refetch() : undefined}
            />
          ) : null}
          <div className={styles.row}>
            <div className={styles.quantity}>
              <span className={styles.label}>{t('buy.quantity')}</span>
              <LabelledStepper
                label={t('buy.quantity')}
                className={styles.stepper}
                data-testid="quantity-stepper"
                min={1}
                max={limits.max}
                digits={0}
                value={quantity}
                onChange={(value) => setWanted(value)}
              />
              <span className={styles.hint}>
                {allowance !== null && item.limitPerUser !== null
                  ? t('buy.limitLeft', { limit: item.limitPerUser, count: allowance })
                  : t('buy.stockLeft', { count: item.stock })}
              </span>
            </div>
            <div className={styles.total}>
              <span className={styles.totalLine}>
                <span className={styles.label}>{t('buy.total')}</span>
                <span data-testid="buy-total" data-fen={totals.total}>
                  <Price fen={totals.total} size="md" />
                </span>
              </span>
              {totals.discount > 0 ? (
                <span className={styles.saved}>
                  {t('buy.saved', { amount: `¥${formatFen(totals.discount)}` })}
                </span>
              ) : null}
            </div>
          </div>
        </>
      ) : null}
      <div className={styles.actions}>
        <MallWatchButton item={item} />
        <ActionBarButton
          block
          color="primary"
          className={styles.buy}
          data-testid="buy-button"
          data-block={limits.block ?? ''}
          disabled={!buyable}
          onClick={() => {
            inBackground(navigate(confirmPath(item.productNo, quantity, choice)))
          }}
        >
          {limits.block === null ? t('buy.buyNow') : t(`buy.blocked.${limits.block}`)}
        </ActionBarButton>
      </div>
    </div>
  )
}
