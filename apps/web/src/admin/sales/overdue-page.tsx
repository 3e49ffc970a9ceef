import { DollarOutlined } from '@ant-design/icons'
import { PageContainer, ProTable, type ProColumns } from '@ant-design/pro-components'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { mayAccess } from '@numisma/contracts/staff'
import type { OverdueOrder } from '@numisma/contracts/staff-sales'
import { Alert, App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd'
import { inBackground } from '../../lib/background'
import { useStaffSession } from '../staff-queries'
import { staffErrorMessage } from '../staff-api'
import { LoadError } from './load-error'
import styles from './overdue-page.module.css'
import { useForfeit, useOverdueOrders } from './queries'
import { RelistButton } from './relist-button'
import { ORDER_STATUS_TEXT, SALES_TEXT as T } from './texts'

/** What a forfeit takes: the hammer, at most what the deposit holds (ForfeitService's rule). */
const takes = (order: OverdueOrder) => Math.min(order.hammer, order.deposit)

/**
 * 逾期订单: won lots unpaid past their due date. A cashier takes the deposit for the lot (the order
 * closes), then a cataloguer relists it; each button says which role it needs.
 */
export function OverduePage() {
  const { message } = App.useApp()
  const orders = useOverdueOrders()
  const forfeit = useForfeit()
  const session = useStaffSession()
  const roles = session.data?.roles ?? []
  const mayForfeit = mayAccess(roles, ['cashier'])
  const mayRelist = mayAccess(roles, ['cataloguer'])

  const doForfeit = async (order: OverdueOrder) => {
    try {
      const done = await forfeit.mutateAsync({
        orderId: order.orderId,
        idempotencyKey: crypto.randomUUID(),
      })
      message.success(T.forfeitDone(formatFen(done.taken)))
    } catch (error) {
      message.error(staffErrorMessage(error, T.failed))
    }
  }

  const columns: ProColumns<OverdueOrder>[] = [
    { title: T.order, dataIndex: 'orderId', width: 80, render: (_, o) => `#${o.orderId}` },
    {
      title: T.lot,
      dataIndex: 'title',
      render: (_, o) => (
        <Space direction="vertical" size={0}>
          <Typography.Text className={styles.title} ellipsis={{ tooltip: o.title }}>
            {o.title}
          </Typography.Text>
          <Typography.Text type="secondary" className={styles.small}>
            {o.specialTitle} · {T.lotNo} {o.lotNo}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: T.winner,
      dataIndex: 'buyer',
      width: 140,
      render: (_, o) => (
        <Space direction="vertical" size={0}>
          <span>{o.buyer.mobile}</span>
          <Typography.Text type="secondary" className={styles.small}>
            ID {o.buyer.userId}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: T.hammer,
      dataIndex: 'hammer',
      width: 120,
      align: 'right',
      render: (_, o) => `¥${formatFen(o.hammer)}`,
    },
    {
      title: T.dueAt,
      dataIndex: 'dueAt',
      width: 130,
      render: (_, o) => (o.dueAt ? formatChinaDate(o.dueAt, 'MM-DD HH:mm') : '—'),
    },
    {
      title: T.deposit,
      dataIndex: 'deposit',
      width: 120,
      align: 'right',
      render: (_, o) => `¥${formatFen(o.deposit)}`,
    },
    {
      title: T.status,
      dataIndex: 'status',
      width: 100,
      render: (_, o) =>
        o.status === 'overdue' ? (
          <Tag color="red">{ORDER_STATUS_TEXT.overdue}</Tag>
        ) : (
          <Tag color="gold">{T.waitingRelist}</Tag>
        ),
    },
    {
      title: T.actions,
      dataIndex: 'actions',
      width: 220,
      render: (_, o) => (
        <Space>
          {o.status === 'overdue' &&
            (mayForfeit ? (
              <Popconfirm
                title={T.forfeit}
                description={
                  <div className={styles.confirm}>{T.forfeitConfirm(formatFen(takes(o)))}</div>
                }
                okText={T.confirm}
                cancelText={T.cancel}
                onConfirm={() => inBackground(doForfeit(o))}
              >
                <Button
                  size="small"
                  danger
                  icon={<DollarOutlined />}
                  loading={forfeit.isPending && forfeit.variables.orderId === o.orderId}
                >
                  {T.forfeit}
                </Button>
              </Popconfirm>
            ) : (
              <Tooltip title={T.needsRole('出纳')}>
                <Button size="small" danger icon={<DollarOutlined />} disabled>
                  {T.forfeit}
                </Button>
              </Tooltip>
            ))}
          {o.status === 'cancelled' && (
            <RelistButton
              lot={{
                id: o.lotId,
                title: o.title,
                startPrice: o.startPrice,
                reservePrice: o.reservePrice,
              }}
              allowed={mayRelist}
            />
          )}
        </Space>
      ),
    },
  ]

  return (
    <PageContainer title={T.overdue}>
      <Alert className={styles.hint} type="info" showIcon message={T.overdueHint} />
      {orders.isError && <LoadError retry={() => orders.refetch()} />}
      <ProTable<OverdueOrder>
        rowKey="orderId"
        columns={columns}
        dataSource={orders.data ?? []}
        loading={orders.isPending}
        search={false}
        options={false}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: T.overdueEmpty }}
        cardProps={{ bodyStyle: { padding: 0 } }}
      />
    </PageContainer>
  )
}
