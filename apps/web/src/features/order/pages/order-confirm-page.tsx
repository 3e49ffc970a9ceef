import { useRef, useState } from 'react'
import type { MallItemDetail } from '@numisma/contracts/catalog'
import { ProductNoSchema } from '@numisma/contracts/mall'
import { formatFen } from '@numisma/contracts/money'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { Button, Stepper } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { CouponSelect } from '../../../components/coupon-select'
import { DetailSkeleton } from '../../../components/detail-skeleton'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { Price } from '../../../components/price'
import { isNotFound } from '../../../lib/api-client'
import { inBackground } from '../../../lib/background'
import {
  buyLimits,
  chosenCoupon,
  clampQuantity,
  orderTotals,
  parseCouponChoice,
  quantityLeftAfter,
  type CouponChoice,
} from '../../../lib/mall/buy'
import { useUsableCoupons } from '../../../lib/mall/coupons'
import { purchaseMessage, useCreateOrder } from '../../../lib/mall/create-order'
import { useMallItem } from '../../../lib/mall/get-mall-item'
import {
  PENDING_PAYMENT_PATH,
  purchaseAttempt,
  serverAnswered,
  type PurchaseAttempt,
} from '../../../lib/mall/purchase-attempt'
import { positiveId } from '../../../lib/query-param'
import { showSuccess, showToast } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import { ConfirmItemCard } from '../components/confirm-item-card'
import styles from './order-confirm-page.module.css'

/**
 * /order/confirm?productNo=&quantity=&userCouponId=: the second of the two taps that buy a mall
 * item. `userCouponId` is a coupon, `none`, or absent for the best one.
 */
export function OrderConfirmPage() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const parsed = ProductNoSchema.safeParse(params.get('productNo') ?? '')
  if (!parsed.success) {
    return (
      <PageFrame>
        <EmptyState description={t('orderConfirm.notFound')} />
      </PageFrame>
    )
  }
  return (
    <ConfirmOrder
      productNo={parsed.data}
      quantity={positiveId(params.get('quantity'))}
      choice={parseCouponChoice(params.get('userCouponId'))}
    />
  )
}

interface ConfirmOrderProps {
  productNo: string
  quantity: number | undefined
  choice: CouponChoice
}

function ConfirmOrder(props: ConfirmOrderProps) {
  const { t } = useTranslation()
  const item = useMallItem(props.productNo)
  if (item.data) return <ConfirmForm item={item.data} {...props} />
  return (
    <PageFrame bodyClassName={styles.body}>
      {isNotFound(item.error) ? (
        <EmptyState description={t('mall.notFound')} />
      ) : item.isError ? (
        <LoadFailed onRetry={() => item.refetch()} />
      ) : (
        <DetailSkeleton />
      )}
    </PageFrame>
  )
}

function ConfirmForm({ item, ...initial }: ConfirmOrderProps & { item: MallItemDetail }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const [, setParams] = useSearchParams()
  const create = useCreateOrder()
  const limits = buyLimits(item)
  const [wanted, setWanted] = useState(initial.quantity)
  const [choice, setChoice] = useState(initial.choice)
  const quantity = clampQuantity(wanted, limits.max)
  const usable = useUsableCoupons(item.productNo, quantity, limits.block === null)
  const coupon = usable.data ? chosenCoupon(choice, usable.data) : null
  const totals = orderTotals(item.price, quantity, coupon)
  // The unanswered attempt's key (see purchase-attempt.ts); a ref, as a tap must see the last one.
  const attempt = useRef<PurchaseAttempt | null>(null)
  const sending = useRef(false)
  const [placed, setPlaced] = useState(false)
  // The list for this quantity has not come yet: what is shown may not be what the server offers.
  const settling = usable.isPlaceholderData || (usable.isPending && usable.fetchStatus !== 'idle')

  const submit = async () => {
    // A ref, not only the button's state: two taps within one frame both see it enabled.
    if (sending.current || placed || limits.block !== null) return
    sending.current = true
    const order = {
      productNo: item.productNo,
      quantity,
      ...(coupon ? { userCouponId: coupon.userCouponId } : {}),
    }
    const current = purchaseAttempt(attempt.current, order, randomUuid)
    attempt.current = current
    try {
      const result = await create.mutateAsync({ order, idempotencyKey: current.key })
      attempt.current = null
      if (result.status === 'SUCCESS') {
        setPlaced(true)
        showSuccess(purchaseMessage(result, locale))
        await navigate(PENDING_PAYMENT_PATH, { replace: true })
        return
      }
      // Fewer left than asked: offer those, and say so (the link keeps the quantity shown).
      const left = quantityLeftAfter(result, quantity)
      if (left !== null) {
        setWanted(left)
        setParams(
          (current) => {
            const next = new URLSearchParams(current)
            next.set('quantity', String(left))
            return next
          },
          { replace: true },
        )
        showToast(t('orderConfirm.soldOutAdjusted', { count: left }))
        return
      }
      // Spec §4/§8: anything but SUCCESS bought nothing; its detail says why.
      showToast(purchaseMessage(result, locale))
    } catch (error) {
      // request() has toasted the server's message or 'purchase failed'. Without an answer the
      // key is kept, so tapping again retries this very attempt and cannot buy twice.
      if (serverAnswered(error)) attempt.current = null
    } finally {
      sending.current = false
    }
  }

  const footer = (
    <div className={styles.footer}>
      <div className={styles.pay}>
        <span className={styles.payLabel}>{t('orderConfirm.total')}</span>
        <span data-testid="confirm-total" data-fen={totals.total}>
          <Price fen={totals.total} size="lg" />
        </span>
      </div>
      <Button
        color="primary"
        shape="rounded"
        className={styles.submit}
        data-testid="confirm-submit"
        disabled={limits.block !== null || settling}
        loading={create.isPending || placed}
        onClick={() => {
          inBackground(submit())
        }}
      >
        {limits.block === null ? t('orderConfirm.submit') : t(`buy.blocked.${limits.block}`)}
      </Button>
    </div>
  )

  return (
    <PageFrame bodyClassName={styles.body} footer={footer} footerClassName={styles.footerFrame}>
      <div className={styles.content} data-testid="order-confirm">
        <ConfirmItemCard item={item} />
        <section className={styles.card}>
          <div className={styles.line}>
            <span className={styles.label}>{t('orderConfirm.quantity')}</span>
            <Stepper
              className={styles.stepper}
              data-testid="quantity-stepper"
              min={1}
              max={limits.max}
              digits={0}
              value={quantity}
              disabled={limits.block !== null}
              onChange={(value) => setWanted(value)}
            />
          </div>
          {limits.block === null ? (
            <div className={styles.line}>
              <CouponSelect
                coupons={usable.data}
                selected={coupon}
                goods={totals.goods}
                onChoose={setChoice}
                onRetry={usable.isError && !usable.data ? () => usable.refetch() : undefined}
              />
            </div>
          ) : null}
        </section>
        <section className={styles.card}>
          <div className={styles.line}>
            <span className={styles.label}>{t('orderConfirm.unitPrice')}</span>
            <span>¥{formatFen(item.price)}</span>
          </div>
          <div className={styles.line}>
            <span className={styles.label}>{t('orderConfirm.goods')}</span>
            <span data-testid="confirm-goods" data-fen={totals.goods}>
              ¥{formatFen(totals.goods)}
            </span>
          </div>
          {/* Only a coupon that saves something has a line: "-¥0.00" reads like a charge. */}
          {totals.discount > 0 ? (
            <div className={styles.line}>
              <span className={styles.label}>{t('orderConfirm.discount')}</span>
              <span
                className={styles.discount}
                data-testid="confirm-discount"
                data-fen={totals.discount}
              >
                -¥{formatFen(totals.discount)}
              </span>
            </div>
          ) : null}
          <div className={`${styles.line} ${styles.totalLine}`}>
            <span className={styles.label}>{t('orderConfirm.total')}</span>
            <Price fen={totals.total} size="md" />
          </div>
        </section>
        <p className={styles.note}>{t('orderConfirm.storageNote')}</p>
      </div>
    </PageFrame>
  )
}
