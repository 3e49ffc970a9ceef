import { PrinterOutlined, SendOutlined } from '@ant-design/icons'
import {
  ModalForm,
  PageContainer,
  ProFormDependency,
  ProFormSelect,
  ProFormText,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { ShipmentShipSchema } from '@numisma/contracts/delivery'
import { formatFen } from '@numisma/contracts/money'
import {
  CARRIERS,
  OTHER_CARRIER,
  trackingNoRefusal,
  type FulfilmentShipment,
} from '@numisma/contracts/staff-fulfilment'
import { App, Button, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { inBackground } from '../../lib/background'
import { addressLine, formatChinaTime } from './format'
import { ItemsList } from './items-list'
import { useShip, useShipments } from './queries'
import styles from './shipments-page.module.css'
import { FULFIL_TEXT as T } from './texts'

type Tab = 'applied' | 'shipped'

const CARRIER_OPTIONS = [
  ...CARRIERS.map((c) => ({ label: c.name, value: c.name })),
  { label: OTHER_CARRIER, value: OTHER_CARRIER },
]

interface ShipValues {
  carrier: string
  otherCarrier?: string
  trackingNo: string
}

/** 待发货: express shipments to pack and ship (carrier, tracking number), and those shipped. */
export function ShipmentsPage() {
  const [tab, setTab] = useState<Tab>('applied')
  const [selected, setSelected] = useState<number[]>([])
  const shipments = useShipments(tab)
  const navigate = useNavigate()

  const columns: ProColumns<FulfilmentShipment>[] = [
    { title: T.shipmentNo, dataIndex: 'id', width: 80 },
    {
      title: T.buyer,
      dataIndex: 'buyer',
      width: 140,
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <Typography.Text>{s.buyer.display}</Typography.Text>
          <Typography.Text type="secondary">{s.buyer.mobile}</Typography.Text>
        </Space>
      ),
    },
    {
      title: T.address,
      dataIndex: 'address',
      width: 230,
      render: (_, s) =>
        s.address ? (
          <Space direction="vertical" size={0}>
            <Typography.Text>
              {s.address.name} {s.address.mobile}
            </Typography.Text>
            <Typography.Text type="secondary">{addressLine(s.address)}</Typography.Text>
          </Space>
        ) : (
          T.none
        ),
    },
    { title: T.items, dataIndex: 'items', render: (_, s) => <ItemsList items={s.items} /> },
    {
      title: T.insuredValue,
      dataIndex: 'declaredValue',
      width: 120,
      align: 'right',
      render: (_, s) =>
        s.insured ? (
          <Typography.Text strong>¥{formatFen(s.declaredValue)}</Typography.Text>
        ) : (
          <Tag>{T.notInsured}</Tag>
        ),
    },
    tab === 'applied'
      ? {
          title: T.appliedAt,
          dataIndex: 'appliedAt',
          width: 140,
          render: (_, s) => formatChinaTime(s.appliedAt),
        }
      : {
          title: T.tracking,
          dataIndex: 'trackingNo',
          width: 170,
          render: (_, s) => (
            <Space direction="vertical" size={0} data-testid="shipment-tracking">
              <Typography.Text>{s.carrier}</Typography.Text>
              <Typography.Text copyable>{s.trackingNo}</Typography.Text>
              {s.shippedAt && (
                <Typography.Text type="secondary">{formatChinaTime(s.shippedAt)}</Typography.Text>
              )}
            </Space>
          ),
        },
  ]
  if (tab === 'applied') {
    columns.push({
      title: T.actions,
      valueType: 'option',
      width: 80,
      render: (_, s) => [<ShipButton key="ship" shipment={s} />],
    })
  }

  return (
    <PageContainer title={T.shipmentsPage}>
      <ProTable<FulfilmentShipment>
        rowKey="id"
        columns={columns}
        dataSource={shipments.data ?? []}
        loading={shipments.isFetching}
        search={false}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        options={{
          reload: () => inBackground(shipments.refetch()),
          density: false,
          setting: false,
        }}
        rowSelection={
          tab === 'applied'
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(Number)),
              }
            : false
        }
        tableAlertRender={false}
        rowClassName={() => styles.row ?? ''}
        toolbar={{
          menu: {
            type: 'tab',
            activeKey: tab,
            items: [
              { key: 'applied', label: T.toShip },
              { key: 'shipped', label: T.shipped },
            ],
            onChange: (key) => {
              setTab(key === 'shipped' ? 'shipped' : 'applied')
              setSelected([])
            },
          },
          actions:
            tab === 'applied'
              ? [
                  <Button
                    key="print"
                    icon={<PrinterOutlined />}
                    disabled={selected.length === 0}
                    data-testid="print-selected"
                    onClick={() =>
                      inBackground(
                        navigate(`/fulfilment/pick-lists?shipmentIds=${selected.join(',')}`),
                      )
                    }
                  >
                    {T.printSelected(selected.length)}
                  </Button>,
                ]
              : [],
        }}
      />
    </PageContainer>
  )
}

/** 发货: the carrier from the common list (or named under 其他) and its tracking number. */
function ShipButton({ shipment }: { shipment: FulfilmentShipment }) {
  const ship = useShip()
  const { message } = App.useApp()
  return (
    <ModalForm<ShipValues>
      title={T.shipTitle(shipment.id)}
      width={440}
      trigger={
        <Button type="link" size="small" icon={<SendOutlined />} data-testid="ship">
          {T.ship}
        </Button>
      }
      modalProps={{ destroyOnHidden: true, okText: T.ship }}
      initialValues={{ carrier: CARRIERS[0].name }}
      onFinish={async (values) => {
        const carrier =
          values.carrier === OTHER_CARRIER ? (values.otherCarrier ?? '').trim() : values.carrier
        try {
          await ship.mutateAsync({
            id: shipment.id,
            details: { carrier, trackingNo: values.trackingNo.trim().toUpperCase() },
          })
        } catch (error) {
          message.error(error instanceof Error ? error.message : String(error))
          return false
        }
        message.success(T.shippedToast(shipment.id))
        return true
      }}
    >
      <ProFormSelect
        name="carrier"
        label={T.carrier}
        options={CARRIER_OPTIONS}
        rules={[{ required: true, message: T.carrierRequired }]}
        fieldProps={{ 'data-testid': 'ship-carrier' } as object}
      />
      <ProFormDependency name={['carrier']}>
        {({ carrier }: { carrier?: string }) =>
          carrier === OTHER_CARRIER && (
            <ProFormText
              name="otherCarrier"
              label={T.otherCarrier}
              rules={[{ required: true, whitespace: true, message: T.otherCarrierRequired }]}
            />
          )
        }
      </ProFormDependency>
      <ProFormDependency name={['carrier']}>
        {({ carrier }: { carrier?: string }) => (
          <ProFormText
            name="trackingNo"
            label={T.trackingNo}
            fieldProps={{ 'data-testid': 'ship-tracking', autoComplete: 'off' }}
            rules={[
              { required: true, whitespace: true, message: T.trackingRequired },
              {
                validator: async (_, value: string | undefined) => {
                  const typed = (value ?? '').trim().toUpperCase()
                  if (typed === '') return
                  if (!ShipmentShipSchema.shape.trackingNo.safeParse(typed).success)
                    throw new Error(T.trackingShape)
                  const example = trackingNoRefusal(carrier ?? '', typed)
                  if (example !== null) throw new Error(T.trackingExample(example))
                },
              },
            ]}
          />
        )}
      </ProFormDependency>
    </ModalForm>
  )
}
