import {
  ModalForm,
  ProCard,
  ProDescriptions,
  ProFormTextArea,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import type { Refund, RefundableOrder } from '@numisma/contracts/staff-money'
import { Alert, App, Button, InputNumber, Result, Space, Tag } from 'antd'
import { useState } from 'react'
import { chinaTime, messageOf, nameOf, newIdempotencyKey, yuanText } from './format'
import { useRefundableOrder, useRefundOrder, useRefunds } from './queries'
import { MONEY_TEXT as T, ORDER_STATUS_NAMES, PAY_METHOD_NAMES, REFUSAL_NAMES } from './texts'
import styles from './refunds-page.module.css'

const PAGE_SIZE = 10
const KIND_NAMES: Record<string, string> = { auction: '拍品订单', mall: '商城订单' }

function RefundButton({ order }: { order: RefundableOrder }) {
  const refund = useRefundOrder()
  const { message } = App.useApp()
  const [key, setKey] = useState(newIdempotencyKey)
  return (
    <ModalForm<{ reason: string }>
      title={T.refundTitle(order.orderId)}
      width={480}
      trigger={
        <Button type="primary" danger>
          {T.refund} ¥{yuanText(order.total)}
        </Button>
      }
      modalProps={{ destroyOnHidden: true, afterClose: () => setKey(newIdempotencyKey()) }}
      onFinish={async (values) => {
        try {
          const done = await refund.mutateAsync({
            orderId: order.orderId,
            reason: values.reason,
            key,
          })
          message.success(`${T.refunded}：${T.balanceAfter} ¥${yuanText(done.balanceAfter)}`)
          return true
        } catch (error) {
          message.error(messageOf(error))
          return false
        }
      }}
    >
      <Alert type="warning" showIcon message={T.refundHelp(yuanText(order.total))} />
      <br />
      <ProFormTextArea
        name="reason"
        label={T.reason}
        fieldProps={{ maxLength: 200 }}
        rules={[{ required: true, whitespace: true, min: 2, message: T.reasonRequired }]}
      />
    </ModalForm>
  )
}

function OrderCard({ order }: { order: RefundableOrder }) {
  return (
    <ProCard
      title={`${T.orderId} #${order.orderId} · ${order.title}`}
      extra={order.refusal === null ? <RefundButton order={order} /> : null}
    >
      <ProDescriptions column={4} size="small">
        <ProDescriptions.Item label={T.user}>
          {order.userId} · {order.mobile}
        </ProDescriptions.Item>
        <ProDescriptions.Item label={T.kind}>{nameOf(KIND_NAMES, order.kind)}</ProDescriptions.Item>
        <ProDescriptions.Item label={T.status}>
          <Tag color={order.status === 'paid' ? 'blue' : 'default'}>
            {nameOf(ORDER_STATUS_NAMES, order.status)}
          </Tag>
        </ProDescriptions.Item>
        <ProDescriptions.Item label={T.payMethod}>
          {order.payMethod ? nameOf(PAY_METHOD_NAMES, order.payMethod) : '—'}
        </ProDescriptions.Item>
        <ProDescriptions.Item label={T.goods}>¥{yuanText(order.goods)}</ProDescriptions.Item>
        <ProDescriptions.Item label={T.discount}>¥{yuanText(order.discount)}</ProDescriptions.Item>
        <ProDescriptions.Item label={T.fee}>¥{yuanText(order.fee)}</ProDescriptions.Item>
        <ProDescriptions.Item label={T.total}>¥{yuanText(order.total)}</ProDescriptions.Item>
        <ProDescriptions.Item label={T.paidAt}>
          {chinaTime(order.paidAt) || '—'}
        </ProDescriptions.Item>
      </ProDescriptions>
      {order.refusal === null ? (
        <Alert className={styles.refusal} type="success" showIcon message={T.refundable} />
      ) : (
        <Alert
          className={styles.refusal}
          type="info"
          showIcon
          message={nameOf(REFUSAL_NAMES, order.refusal)}
        />
      )}
    </ProCard>
  )
}

const refundColumns: ProColumns<Refund>[] = [
  { title: T.at, dataIndex: 'createdAt', width: 150, render: (_, r) => chinaTime(r.createdAt) },
  { title: T.orderId, dataIndex: 'orderId', width: 90, render: (_, r) => `#${r.orderId}` },
  { title: T.kind, dataIndex: 'kind', width: 100, render: (_, r) => nameOf(KIND_NAMES, r.kind) },
  { title: T.user, dataIndex: 'userId', width: 80 },
  {
    title: T.amount,
    dataIndex: 'amount',
    align: 'right',
    width: 120,
    render: (_, r) => `¥${yuanText(r.amount)}`,
  },
  {
    title: T.balanceAfter,
    dataIndex: 'balanceAfter',
    align: 'right',
    width: 130,
    render: (_, r) => `¥${yuanText(r.balanceAfter)}`,
  },
  { title: T.reason, dataIndex: 'reason', ellipsis: true },
]

/** 退款: find an order by its number, refund it when it is paid and still in storage; history. */
export function RefundsPage() {
  const [orderId, setOrderId] = useState<number | null>(null)
  const [typed, setTyped] = useState<number | null>(null)
  const order = useRefundableOrder(orderId)
  const [page, setPage] = useState(1)
  const refunds = useRefunds(page, PAGE_SIZE)
  return (
    <div className={styles.page}>
      <ProCard>
        <Space>
          <InputNumber<number>
            placeholder={T.orderId}
            min={1}
            precision={0}
            controls={false}
            style={{ width: 200 }}
            value={typed}
            onChange={setTyped}
            onPressEnter={() => setOrderId(typed)}
            aria-label={T.orderId}
          />
          <Button type="primary" onClick={() => setOrderId(typed)} loading={order.isFetching}>
            {T.findOrder}
          </Button>
        </Space>
      </ProCard>
      {order.isError ? (
        <Result status="warning" title={T.orderNotFound} subTitle={messageOf(order.error)} />
      ) : null}
      {order.data ? <OrderCard order={order.data} /> : null}
      <ProTable<Refund>
        headerTitle={T.refundHistory}
        rowKey="id"
        search={false}
        options={false}
        loading={refunds.isFetching}
        dataSource={refunds.data?.data}
        columns={refundColumns}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: refunds.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
      />
    </div>
  )
}
