import type { Booking } from '@numisma/contracts/delivery'
import { Button, Dialog, PullToRefresh, Skeleton } from 'antd-mobile'
import { useKeepAliveContext } from 'keepalive-for-react'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate } from 'react-router'
import { EmptyState } from '../../../components/empty-state'
import { InfiniteListEnd } from '../../../components/infinite-list-end'
import { LoadFailed } from '../../../components/load-failed'
import { PageFrame } from '../../../components/page-frame'
import { inBackground } from '../../../lib/background'
import { useBookings, useCancelBooking } from '../../../lib/delivery/bookings'
import { fetchNextOrThrow } from '../../../lib/paging'
import { useServerNow } from '../../../lib/server-clock'
import { showSuccess } from '../../../lib/toast'
import { BookingCard } from '../components/booking-card'
import { bookingCancellable } from '../components/delivery-choice'
import styles from './delivery-page.module.css'

/**
 * /order/cashpay/list (预约列表): my counter cash bookings, newest first, each with its day and
 * slot, status and the cash to bring; a booking may be cancelled until its day begins.
 */
export function CashpayListPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const bookings = useBookings()
  const { active } = useKeepAliveContext()
  // Server time decides whether a booking's day has come (the server refuses a late cancel too).
  const now = useServerNow(active)
  const list = bookings.data?.pages.flatMap((page) => page.data) ?? []
  const right = (
    <a onClick={() => inBackground(navigate('/order/cashpay'))} data-testid="to-cashpay">
      {t('delivery.newBooking')}
    </a>
  )
  return (
    <PageFrame bodyClassName={styles.body} right={right}>
      <PullToRefresh
        onRefresh={async () => {
          await bookings.refetch()
        }}
      >
        {bookings.isPending ? (
          <div className={styles.list} aria-hidden="true">
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : !bookings.data ? (
          <LoadFailed onRetry={() => bookings.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState description={t('empty.cashpayList')}>
            <Button
              size="small"
              color="primary"
              fill="outline"
              onClick={() => inBackground(navigate('/order/cashpay'))}
            >
              {t('delivery.newBooking')}
            </Button>
          </EmptyState>
        ) : (
          <div className={styles.list} data-testid="booking-list">
            {list.map((b) => (
              <BookingCard
                key={b.id}
                booking={b}
                actions={
                  now !== undefined && bookingCancellable(b, now) ? (
                    <CancelBooking booking={b} />
                  ) : null
                }
              />
            ))}
            <InfiniteListEnd
              hasMore={bookings.hasNextPage}
              loadMore={() => fetchNextOrThrow(bookings.fetchNextPage)}
            />
          </div>
        )}
      </PullToRefresh>
    </PageFrame>
  )
}

function CancelBooking({ booking }: { booking: Booking }) {
  const { t } = useTranslation()
  const cancel = useCancelBooking()
  const onCancel = async () => {
    const ok = await Dialog.confirm({
      content: t('delivery.cancelBookingConfirm', { date: booking.date, slot: booking.slot }),
      confirmText: t('delivery.cancelBooking'),
      cancelText: t('delivery.keepBooking'),
    })
    if (!ok) return
    try {
      await cancel.mutateAsync(booking.id)
      showSuccess(t('delivery.bookingCancelled'))
    } catch {
      // request() toasted the reason; the bookings were refreshed.
    }
  }
  return (
    <Button
      size="mini"
      fill="outline"
      loading={cancel.isPending}
      data-testid="booking-cancel"
      onClick={() => inBackground(onCancel())}
    >
      {t('delivery.cancelBooking')}
    </Button>
  )
}
