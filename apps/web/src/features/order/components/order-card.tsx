import { Button, Dialog } from 'antd-mobile'
import type { Order, OrderItem } from '@numisma/contracts/orders'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { useTranslation } from '../../../lib/i18n'
import { Link, useNavigate } from 'react-router'
import { Price } from '../../../components/price'
import { inBackground } from '../../../lib/background'
import { formatCountdown } from '../../../lib/countdown'
import { useCancelOrder } from '../../../lib/orders/cancel-order'
import { showSuccess } from '../../../lib/toast'
import { useLocale } from '../../../lib/use-locale'
import { isCancellable } from './order-tabs'
import { usePayTimeLeft } from './pay-time-left'
import styles from './order-card.module.css'
import { ItemImage } from '../../../components/item-image'

/**
 * One order: its items, what it comes to (goods + fee − coupon = total), its status and when it was
 * placed; an unpaid one also shows the time left to pay, 去付款 and, for a mall order, 取消订单; a
 * paid one 申请发货, a shipped one the way to its tracking number and 确认收货.
 */
export function OrderCard({ order }: { order: Order }) {
  const { t } = useTranslation()
  return (
    <article
      className={styles.card}
      data-testid="order-card"
      data-order-id={order.id}
      data-status={order.status}
    >
      <header className={styles.head}>
        <span className={styles.kind}>{t(`orders.kind.${order.kind}`)}</span>
        <span className={styles.number}>{t('orders.number', { id: order.id })}</span>
        <span className={styles.status} data-status={order.status} data-testid="order-status">
          {t(`orders.status.${order.status}`)}
        </span>
      </header>
      {order.items.map((item, index) => (
        <OrderItemRow key={`${item.productNo ?? item.lotId ?? ''}-${index}`} item={item} />
      ))}
      <dl className={styles.amounts}>
        <Amount label={t('orders.goods')} fen={order.goods} />
        {order.fee > 0 ? <Amount label={t('orders.fee')} fen={order.fee} /> : null}
        {order.discount > 0 ? (
          <Amount label={t('orders.discount')} fen={order.discount} minus testId="order-discount" />
        ) : null}
        <div className={`${styles.amount} ${styles.total}`}>
          <dt>{t('orders.total')}</dt>
          <dd data-testid="order-total">
            <Price fen={order.total} size="md" muted={order.status === 'cancelled'} />
          </dd>
        </div>
      </dl>
      <p className={styles.time}>
        {t('orders.createdAt', { time: formatChinaDate(order.createdAt, 'YYYY-MM-DD HH:mm') })}
      </p>
      {order.status === 'pending_payment' ? <PendingActions order={order} /> : null}
      {order.status === 'paid' || order.status === 'shipped' ? (
        <DeliveryActions order={order} />
      ) : null}
    </article>
  )
}

function itemHref(item: OrderItem): string | undefined {
  if (item.productNo) return `/productDetail?productNo=${encodeURIComponent(item.productNo)}`
  if (item.lotId !== undefined) return `/productDetail?id=${item.lotId}`
  return undefined
}

function OrderItemRow({ item }: { item: OrderItem }) {
  const content = (
    <>
      <span className={styles.media}>
        <ItemImage src={item.image} alt="" />
      </span>
      <span className={styles.info}>
        <span className={styles.title}>{item.title}</span>
        <span className={styles.unit}>
          <Price fen={item.price} size="sm" muted />
          <span className={styles.quantity}>× {item.quantity}</span>
        </span>
      </span>
    </>
  )
  const href = itemHref(item)
  return href ? (
    <Link to={href} className={styles.item}>
      {content}
    </Link>
  ) : (
    <div className={styles.item}>{content}</div>
  )
}

function Amount({
  label,
  fen,
  minus = false,
  testId,
}: {
  label: string
  fen: number
  minus?: boolean
  testId?: string
}) {
  return (
    <div className={styles.amount}>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        {minus ? <span className={styles.minus}>−</span> : null}
        <Price fen={fen} size="sm" muted={!minus} />
      </dd>
    </div>
  )
}

/**
 * A paid order in storage leads to applying for its delivery (申请发货); a shipped one to where
 * its tracking number is and receipt is confirmed (自提/邮寄).
 */
function DeliveryActions({ order }: { order: Order }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const paid = order.status === 'paid'
  return (
    <div className={styles.pending}>
      <span className={styles.note} data-testid="order-storage">
        {!paid
          ? null
          : order.storageFee !== undefined && order.storageFee > 0
            ? t('delivery.storageFee', { fee: formatFen(order.storageFee) })
            : order.storageFreeUntil !== undefined
              ? t('delivery.storageFree', {
                  // The instant storage starts to cost: the last free day is the one before.
                  date: formatChinaDate(Date.parse(order.storageFreeUntil) - 1, 'YYYY-MM-DD'),
                })
              : t('delivery.inStorage')}
      </span>
      <span className={styles.actions}>
        <Button
          size="mini"
          color="primary"
          fill={paid ? 'solid' : 'outline'}
          data-testid={paid ? 'order-apply-send' : 'order-to-receive'}
          onClick={() =>
            inBackground(
              navigate(paid ? `/order/applySend?orderIds=${order.id}` : '/order/selfSend'),
            )
          }
        >
          {t(paid ? 'delivery.apply' : 'delivery.trackAndConfirm')}
        </Button>
      </span>
    </div>
  )
}

function PendingActions({ order }: { order: Order }) {
  const { t } = useTranslation()
  const locale = useLocale()
  const navigate = useNavigate()
  const cancel = useCancelOrder()
  const left = usePayTimeLeft(order.dueAt)
  const expired = left === 0

  const onCancel = async (): Promise<void> => {
    const ok = await Dialog.confirm({
      content: t(
        order.userCouponId === null ? 'orders.cancelConfirm' : 'orders.cancelConfirmCoupon',
      ),
      confirmText: t('orders.cancel'),
      cancelText: t('orders.keep'),
    })
    if (!ok) return
    try {
      await cancel.mutateAsync(order)
      showSuccess(t('orders.cancelled'))
    } catch {
      // request() has toasted the server's reason; the mutation refreshed the lists either way.
    }
  }

  return (
    <div className={styles.pending}>
      <span className={styles.left} data-testid="order-pay-left" role="timer">
        {order.dueAt === null ? null : expired ? (
          t('orders.payExpired')
        ) : (
          <>
            {t('orders.payLeft')}{' '}
            <b className={styles.clock}>
              {left === undefined ? '--:--:--' : formatCountdown(left, locale)}
            </b>
          </>
        )}
      </span>
      <span className={styles.actions}>
        {isCancellable(order) ? (
          <Button
            size="mini"
            fill="outline"
            loading={cancel.isPending}
            data-testid="order-cancel"
            onClick={() => inBackground(onCancel())}
          >
            {t('orders.cancel')}
          </Button>
        ) : null}
        {expired ? null : (
          <Button
            size="mini"
            color="primary"
            data-testid="order-pay"
            onClick={() => inBackground(navigate(`/account/pay?orderIds=${order.id}`))}
          >
            {t('orders.pay')}
          </Button>
        )}
      </span>
    </div>
  )
}
