import { CloseOutlined, PayCircleOutlined, PrinterOutlined } from '@ant-design/icons'
import { PageContainer, ProCard } from '@ant-design/pro-components'
import { formatFen } from '@numisma/contracts/money'
import { mayAccess } from '@numisma/contracts/staff'
import type { SlotBooking } from '@numisma/contracts/staff-fulfilment'
import { App, Button, Empty, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useNavigate } from 'react-router'
import { inBackground } from '../../lib/background'
import { useStaffSession } from '../staff-queries'
import styles from './counter-page.module.css'
import { DayBar, useCounterDate } from './day-bar'
import { pickListSearch } from './format'
import { ItemsList } from './items-list'
import { useCancelBooking, useCompleteBooking, useCounterDay } from './queries'
import { FULFIL_TEXT as T } from './texts'

const STATUS_COLOURS = { booked: 'blue', completed: 'green', cancelled: 'default' } as const

/**
 * 柜台预约: the day's counter cash bookings by slot. A cashier (or admin) takes the cash and closes
 * one; shipping and cashiers may cancel a no-show.
 */
export function BookingsPage() {
  const [date, setDate] = useCounterDate()
  const day = useCounterDay(date)
  const session = useStaffSession()
  const mayClose = mayAccess(session.data?.roles ?? [], ['cashier'])
  const navigate = useNavigate()

  return (
    <PageContainer
      title={T.bookingsPage}
      extra={
        <Button
          icon={<PrinterOutlined />}
          onClick={() =>
            inBackground(navigate(`/fulfilment/pick-lists${pickListSearch({ date })}`))
          }
        >
          {T.printDay}
        </Button>
      }
    >
      <Space direction="vertical" size="middle" className={styles.stack}>
        <DayBar date={date} onChange={setDate} />
        {day.isError && (
          <Result
            status="error"
            title={T.loadFailed}
            extra={<Button onClick={() => inBackground(day.refetch())}>{T.retry}</Button>}
          />
        )}
        {day.isPending && <ProCard loading bordered />}
        {day.data?.slots.map((slot) => (
          <ProCard
            key={slot.slot}
            title={slot.slot}
            bordered
            extra={
              <Typography.Text type="secondary">
                {T.sharedPlaces(slot.booked, slot.capacity)}
              </Typography.Text>
            }
            data-testid="booking-slot"
            data-slot={slot.slot}
          >
            <BookingTable bookings={slot.bookings} mayClose={mayClose} />
          </ProCard>
        ))}
      </Space>
    </PageContainer>
  )
}

function BookingTable({ bookings, mayClose }: { bookings: SlotBooking[]; mayClose: boolean }) {
  const complete = useCompleteBooking()
  const cancel = useCancelBooking()
  const { message } = App.useApp()
  const run = async (work: Promise<unknown>, done: string) => {
    try {
      await work
      message.success(done)
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error))
    }
  }
  const columns: ColumnsType<SlotBooking> = [
    { title: T.bookingNo, dataIndex: 'bookingId', width: 70 },
    {
      title: T.buyer,
      width: 150,
      render: (_, b) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{b.buyer.display}</Typography.Text>
          <Typography.Text type="secondary">{b.buyer.mobile}</Typography.Text>
        </Space>
      ),
    },
    { title: T.items, render: (_, b) => <ItemsList items={b.items} /> },
    {
      title: T.cash,
      width: 120,
      align: 'right',
      render: (_, b) => <Typography.Text strong>¥{formatFen(b.total)}</Typography.Text>,
    },
    {
      title: T.status,
      width: 90,
      render: (_, b) => (
        <Tag color={STATUS_COLOURS[b.status]} data-testid="booking-status">
          {T.bookingStatus[b.status]}
        </Tag>
      ),
    },
    {
      title: T.actions,
      width: 200,
      render: (_, b) =>
        b.status === 'booked' && (
          <Space size={0}>
            {mayClose && (
              <Popconfirm
                title={T.completeConfirm(formatFen(b.total))}
                onConfirm={() =>
                  inBackground(
                    run(complete.mutateAsync(b.bookingId), T.completedToast(b.bookingId)),
                  )
                }
              >
                <Button
                  type="link"
                  size="small"
                  icon={<PayCircleOutlined />}
                  data-testid="booking-complete"
                >
                  {T.complete}
                </Button>
              </Popconfirm>
            )}
            <Popconfirm
              title={T.cancelConfirm}
              onConfirm={() =>
                inBackground(run(cancel.mutateAsync(b.bookingId), T.cancelledToast(b.bookingId)))
              }
            >
              <Button
                type="link"
                size="small"
                danger
                icon={<CloseOutlined />}
                data-testid="booking-cancel"
              >
                {T.cancel}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ]
  return (
    <Table<SlotBooking>
      rowKey="bookingId"
      size="middle"
      columns={columns}
      dataSource={bookings}
      pagination={false}
      locale={{
        emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.noBookings} />,
      }}
      onRow={(b) => ({ 'data-testid': 'booking', 'data-booking-id': b.bookingId }) as object}
    />
  )
}
