import { useRef } from 'react'
import type { PickupSlot } from '@numisma/contracts/delivery'
import { randomUuid } from '@numisma/contracts/signing-headers'
import { Button } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { isPickupSlot } from '@numisma/domain/delivery'
import { EmptyState } from '../../../components/empty-state'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { DUE_FOOTER_FRAME, DueFooter } from '../../../components/due-footer'
import { inBackground } from '../../../lib/background'
import { useApplyBooking, useBookings } from '../../../lib/delivery/bookings'
import { useDeliveryInfo } from '../../../lib/delivery/delivery-info'
import { answered, nextAttempt, type Attempt } from '../../../lib/finance/attempt'
import { parseOrderIds } from '../../../lib/finance/order-ids'
import { usePendingOrders } from '../../../lib/orders/get-pending-orders'
import {
  bookableOrders,
  declaredValue,
  selectedOrders,
  slotChoice,
  toggled,
} from '../components/delivery-choice'
import { OrderTickRow } from '../../../components/order-tick-row'
import { SlotPicker } from '../components/slot-picker'
import styles from './delivery-page.module.css'

/**
 * /order/cashpay (柜台现金支付预约): unpaid orders — pending, or a won lot overdue — booked for a
 * visit to the counter on a day and slot with places left, to pay the total in cash there and take
 * the goods. Orders already in an open booking are not offered again. Booked, on to
 * /account/applySuc with the booking.
 */
export function CashpayPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const pending = usePendingOrders()
  const info = useDeliveryInfo()
  const bookings = useBookings()
  const book = useApplyBooking()
  const attempt = useRef<Attempt | null>(null)
  const sending = useRef(false)

  const booked = new Set(
    (bookings.data?.pages ?? [])
      .flatMap((page) => page.data)
      .filter((b) => b.status === 'booked')
      .flatMap((b) => b.orderIds),
  )
  const offered = bookableOrders(pending.data ?? []).filter((o) => !booked.has(o.id))
  const named = params.has('orderIds') ? parseOrderIds(params.get('orderIds')) : null
  const chosen = selectedOrders(named, offered)
  const chosenIds = chosen.map((o) => o.id)
  const rawSlot = params.get('slot') ?? ''
  const picked = slotChoice(
    info.data?.pickupDays ?? [],
    params.get('date') ?? undefined,
    isPickupSlot(rawSlot) ? rawSlot : undefined,
  )

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params)
    for (const [key, v] of Object.entries(changes)) {
      if (v === null) next.delete(key)
      else next.set(key, v)
    }
    setParams(next, { replace: true })
  }

  if (!pending.data || !info.data || (bookings.isPending && !bookings.isError)) {
    const failed = pending.isError || info.isError
    return (
      <PageFrame bodyClassName={styles.body}>
        {failed ? (
          <LoadFailed
            onRetry={() => {
              inBackground(pending.refetch())
              inBackground(info.refetch())
            }}
          />
        ) : (
          <PageLoading />
        )}
      </PageFrame>
    )
  }

  if (offered.length === 0) {
    return (
      <PageFrame bodyClassName={styles.body}>
        <EmptyState description={t('empty.cashpay')}>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => inBackground(navigate('/order/cashpay/list'))}
          >
            {t('delivery.toBookings')}
          </Button>
        </EmptyState>
      </PageFrame>
    )
  }

  const submit = async () => {
    if (sending.current || chosenIds.length === 0 || !picked?.slot) return
    sending.current = true
    const body = { orderIds: chosenIds, date: picked.date, slot: picked.slot }
    const current = nextAttempt(attempt.current, body, randomUuid)
    attempt.current = current
    try {
      const result = await book.mutateAsync({ body, idempotencyKey: current.key })
      attempt.current = null
      await navigate(`/account/applySuc?bookingId=${result.bookingId}`, { replace: true })
    } catch (error) {
      // request() toasted the reason (SLOT_FULL, ORDER_NOT_BOOKABLE …); the lists were refreshed.
      if (answered(error)) attempt.current = null
    } finally {
      sending.current = false
    }
  }

  const total = declaredValue(chosen)
  const footer = (
    <DueFooter
      label={t('delivery.cashTotal')}
      fen={total}
      muted={chosen.length === 0}
      testId="cashpay-total"
      submit={{
        label: t('delivery.submitBooking'),
        testId: 'cashpay-submit',
        disabled: chosen.length === 0 || !picked?.slot,
        loading: book.isPending,
        onClick: () => inBackground(submit()),
      }}
    />
  )

  return (
    <PageFrame bodyClassName={styles.body} footer={footer} footerClassName={DUE_FOOTER_FRAME}>
      <div className={styles.content} data-testid="cashpay">
        <section className={styles.card}>
          <h2 className={styles.cardTitle}>
            {t('delivery.unpaidOrders')}
            <span className={styles.count}>
              {t('delivery.selected', { count: chosen.length, total: offered.length })}
            </span>
          </h2>
          {offered.map((order) => (
            <OrderTickRow
              testId="pick-order"
              key={order.id}
              order={order}
              checked={chosenIds.includes(order.id)}
              onToggle={(on) =>
                update({ orderIds: toggled(chosenIds, offered, order.id, on).join(',') })
              }
              note={order.status === 'overdue' ? t('orders.status.overdue') : null}
            />
          ))}
        </section>
        <section className={styles.card}>
          <h2 className={styles.cardTitle}>{t('delivery.cashWhen')}</h2>
          <SlotPicker
            days={info.data.pickupDays}
            date={picked?.date}
            slot={picked?.slot}
            onChange={(choice: { date: string; slot: PickupSlot | undefined }) =>
              update({ date: choice.date, slot: choice.slot ?? null })
            }
          />
        </section>
        <section className={styles.card}>
          <div className={styles.line}>
            <span className={styles.label}>{t('delivery.counterAddress')}</span>
            <span className={styles.value}>{info.data.counterAddress}</span>
          </div>
        </section>
        <p className={styles.hint}>{t('delivery.cashNote')}</p>
      </div>
    </PageFrame>
  )
}
