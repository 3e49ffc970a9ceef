import { CheckOutlined, PrinterOutlined } from '@ant-design/icons'
import { PageContainer, ProCard } from '@ant-design/pro-components'
import type { CounterSlot, SlotPickup } from '@numisma/contracts/staff-fulfilment'
import {
  Alert,
  App,
  Button,
  Empty,
  Popconfirm,
  Progress,
  Result,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useNavigate } from 'react-router'
import { inBackground } from '../../lib/background'
import { DayBar, useCounterDate } from './day-bar'
import { formatChinaTime, pickListSearch } from './format'
import { ItemsList } from './items-list'
import styles from './counter-page.module.css'
import { useCounterDay, useHandOver } from './queries'
import { FULFIL_TEXT as T } from './texts'

/** 自提: the counter's day slot by slot — places taken, each pickup's buyer and items, hand-over. */
export function PickupsPage() {
  const [date, setDate] = useCounterDate()
  const day = useCounterDay(date)
  const navigate = useNavigate()
  const print = (slot?: string) =>
    inBackground(navigate(`/fulfilment/pick-lists${pickListSearch({ date, slot })}`))

  return (
    <PageContainer
      title={T.pickupsPage}
      extra={
        <Button icon={<PrinterOutlined />} onClick={() => print()} data-testid="print-day">
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
        {day.data?.closed && <Alert type="info" showIcon message={T.counterClosed} />}
        {day.data?.slots.map((slot) => (
          <ProCard
            key={slot.slot}
            title={slot.slot}
            bordered
            extra={<SlotHeader slot={slot} onPrint={() => print(slot.slot)} />}
            data-testid="pickup-slot"
            data-slot={slot.slot}
          >
            <PickupTable pickups={slot.pickups} />
          </ProCard>
        ))}
        {day.isPending && <ProCard loading bordered />}
      </Space>
    </PageContainer>
  )
}

function SlotHeader({ slot, onPrint }: { slot: CounterSlot; onPrint: () => void }) {
  return (
    <Space size="middle">
      <Typography.Text type="secondary">
        {T.pickups} {slot.pickups.length} · {T.bookings} {slot.bookings.length}
      </Typography.Text>
      <span className={styles.places} data-testid="slot-places" data-booked={slot.booked}>
        <Progress
          percent={Math.round((slot.booked / Math.max(1, slot.capacity)) * 100)}
          showInfo={false}
          size="small"
          status={slot.booked >= slot.capacity ? 'exception' : 'normal'}
        />
        <Typography.Text>{T.slotPlaces(slot.booked, slot.capacity)}</Typography.Text>
      </span>
      <Button size="small" icon={<PrinterOutlined />} onClick={onPrint}>
        {T.printSlot}
      </Button>
    </Space>
  )
}

function PickupTable({ pickups }: { pickups: SlotPickup[] }) {
  const handOver = useHandOver()
  const { message } = App.useApp()
  const give = async (shipmentId: number) => {
    try {
      await handOver.mutateAsync(shipmentId)
      message.success(T.handedOverToast(shipmentId))
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error))
    }
  }
  const columns: ColumnsType<SlotPickup> = [
    { title: T.shipmentNo, dataIndex: 'shipmentId', width: 80 },
    {
      title: T.buyer,
      width: 150,
      render: (_, p) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{p.buyer.display}</Typography.Text>
          <Typography.Text type="secondary">{p.buyer.mobile}</Typography.Text>
        </Space>
      ),
    },
    { title: T.items, render: (_, p) => <ItemsList items={p.items} /> },
    {
      title: T.status,
      width: 160,
      render: (_, p) =>
        p.status === 'completed' ? (
          <Space direction="vertical" size={0}>
            <Tag color="green">{T.handedOver}</Tag>
            {p.completedAt && (
              <Typography.Text type="secondary">{formatChinaTime(p.completedAt)}</Typography.Text>
            )}
          </Space>
        ) : (
          <Tag color="blue">{T.waiting}</Tag>
        ),
    },
    {
      title: T.actions,
      width: 100,
      render: (_, p) =>
        p.status === 'applied' && (
          <Popconfirm title={T.handOverConfirm} onConfirm={() => inBackground(give(p.shipmentId))}>
            <Button type="link" size="small" icon={<CheckOutlined />} data-testid="hand-over">
              {T.handOver}
            </Button>
          </Popconfirm>
        ),
    },
  ]
  return (
    <Table<SlotPickup>
      rowKey="shipmentId"
      size="middle"
      columns={columns}
      dataSource={pickups}
      pagination={false}
      locale={{
        emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.noPickups} />,
      }}
      onRow={(p) => ({ 'data-testid': 'pickup', 'data-shipment-id': p.shipmentId }) as object}
    />
  )
}
