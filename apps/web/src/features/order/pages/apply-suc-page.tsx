import type { ReactNode } from 'react'
import type { Booking } from '@numisma/contracts/delivery'
import { Button, Result } from 'antd-mobile'
import { useTranslation } from '../../../lib/i18n'
import { useNavigate, useSearchParams } from 'react-router'
import { PageActions } from '../../../components/page-actions'
import { PageFrame } from '../../../components/page-frame'
import { PageLoading } from '../../../components/page-loading'
import { inBackground } from '../../../lib/background'
import { useBookings } from '../../../lib/delivery/bookings'
import { useDeliveryInfo } from '../../../lib/delivery/delivery-info'
import { useShipment } from '../../../lib/delivery/shipments'
import { positiveId } from '../../../lib/query-param'
import { BookingCard } from '../components/booking-card'
import { ShipmentCard } from '../components/shipment-card'
import styles from './delivery-page.module.css'

/**
 * /account/applySuc (预约成功): where applying for delivery or booking counter cash lands —
 * `?shipmentId=` (express: staff ship it and the tracking number shows under 自提/邮寄; pickup:
 * the day, slot and counter address to come to) or `?bookingId=` (the visit to pay cash and take
 * the goods). A public route (a message link may open it): signed out, it says only that it was
 * booked.
 */
export function ApplySucPage() {
  const [params] = useSearchParams()
  const shipmentId = positiveId(params.get('shipmentId') ?? '')
  const bookingId = positiveId(params.get('bookingId') ?? '')
  if (shipmentId !== undefined) return <ShipmentSuccess id={shipmentId} />
  if (bookingId !== undefined) return <BookingSuccess id={bookingId} />
  return (
    <Success title="applySuc.title" description="applySuc.description" list="/order/selfSend" />
  )
}

function ShipmentSuccess({ id }: { id: number }) {
  const shipment = useShipment(id)
  const s = shipment.data
  const pickup = s?.method === 'pickup'
  const counter = useDeliveryInfo({}, pickup)
  if (shipment.isPending) return <Loading />
  if (!s)
    return (
      <Success title="applySuc.title" description="applySuc.description" list="/order/selfSend" />
    )
  return (
    <Success
      title={pickup ? 'applySuc.pickupTitle' : 'applySuc.expressTitle'}
      description={pickup ? 'applySuc.pickupNext' : 'applySuc.expressNext'}
      values={{
        date: s.pickupDate ?? '',
        slot: s.pickupSlot ?? '',
        address: counter.data?.counterAddress ?? '',
      }}
      list="/order/selfSend"
      detail={<ShipmentCard shipment={s} detailed />}
    />
  )
}

function BookingSuccess({ id }: { id: number }) {
  // Read afresh: a cached list from the booking screen may predate the booking.
  const bookings = useBookings({ fresh: true })
  const counter = useDeliveryInfo()
  const booking: Booking | undefined = bookings.data?.pages
    .flatMap((page) => page.data)
    .find((b) => b.id === id)
  if (!bookings.isFetchedAfterMount && !bookings.isError) return <Loading />
  return (
    <Success
      title="applySuc.cashTitle"
      description={booking ? 'applySuc.cashNext' : 'applySuc.description'}
      values={{
        date: booking?.date ?? '',
        slot: booking?.slot ?? '',
        address: counter.data?.counterAddress ?? '',
      }}
      list="/order/cashpay/list"
      detail={booking ? <BookingCard booking={booking} /> : null}
    />
  )
}

function Loading() {
  return (
    <PageFrame>
      <PageLoading />
    </PageFrame>
  )
}

type SuccessKey =
  | 'applySuc.title'
  | 'applySuc.expressTitle'
  | 'applySuc.pickupTitle'
  | 'applySuc.cashTitle'
  | 'applySuc.description'
  | 'applySuc.expressNext'
  | 'applySuc.pickupNext'
  | 'applySuc.cashNext'

function Success({
  title,
  description,
  values = { date: '', slot: '', address: '' },
  list,
  detail,
}: {
  title: SuccessKey
  description: SuccessKey
  values?: { date: string; slot: string; address: string }
  list: string
  detail?: ReactNode
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <PageFrame bodyClassName={styles.body}>
      <div data-testid="apply-suc">
        <Result
          status="success"
          title={t(title)}
          description={t(description, {
            date: values.date,
            slot: values.slot,
            address: values.address,
          })}
        />
        {detail ? <div className={styles.result}>{detail}</div> : null}
        <PageActions>
          <Button
            block
            color="primary"
            data-testid="apply-suc-list"
            onClick={() => inBackground(navigate(list, { replace: true }))}
          >
            {t(list === '/order/cashpay/list' ? 'applySuc.bookings' : 'applySuc.shipments')}
          </Button>
          <Button block onClick={() => inBackground(navigate('/', { replace: true }))}>
            {t('applySuc.home')}
          </Button>
        </PageActions>
      </div>
    </PageFrame>
  )
}
