import {
  ModalForm,
  ProFormDigit,
  ProFormTextArea,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import type { StaffRemittance } from '@numisma/contracts/account'
import { yuanToFen } from '@numisma/contracts/money'
import { App, Button, Space, Tabs, Tag, Tooltip, Typography } from 'antd'
import { useState } from 'react'
import { inBackground } from '../../lib/background'
import { BuyerCell } from './buyer-cell'
import {
  chinaTime,
  fenToYuan,
  groupedAccountNo,
  messageOf,
  newIdempotencyKey,
  yuanText,
} from './format'
import { useConfirmRemittance, useRejectRemittance, useRemittances } from './queries'
import { ReceiptThumb } from './receipt-thumb'
import { MONEY_TEXT as T } from './texts'
import styles from './remittances-page.module.css'

/** The company account the buyer says they paid into, as the cashier reads the statement. */
function CompanyBankCell({ bank }: { bank: StaffRemittance['companyBank'] }) {
  if (!bank) return <Typography.Text type="secondary">{T.companyBankGone}</Typography.Text>
  return (
    <span className={styles.payer}>
      <span>
        {bank.bankName}
        {bank.branch ? ` ${bank.branch}` : ''}
      </span>
      <Typography.Text type="secondary">{bank.accountName}</Typography.Text>
      <Typography.Text className={styles.accountNo} copyable={{ text: bank.accountNo }}>
        {groupedAccountNo(bank.accountNo)}
      </Typography.Text>
    </span>
  )
}

const STATUS_TAGS: Record<StaffRemittance['status'], { color: string; text: string }> = {
  submitted: { color: 'gold', text: T.waiting },
  confirmed: { color: 'green', text: T.confirmed },
  rejected: { color: 'red', text: T.rejected },
}

function ConfirmButton({ notice }: { notice: StaffRemittance }) {
  const confirm = useConfirmRemittance()
  const { message } = App.useApp()
  // One key per opening of the form: a double click or a retry replays, a new opening is new.
  const [key, setKey] = useState(newIdempotencyKey)
  return (
    <ModalForm<{ amountReceived: number; note?: string }>
      title={T.confirmTitle(notice.id)}
      width={460}
      trigger={
        <Button type="primary" size="small">
          {T.confirm}
        </Button>
      }
      initialValues={{ amountReceived: fenToYuan(notice.amount) }}
      modalProps={{ destroyOnHidden: true, afterClose: () => setKey(newIdempotencyKey()) }}
      onFinish={async (values) => {
        try {
          await confirm.mutateAsync({
            id: notice.id,
            decision: {
              amountReceived: yuanToFen(values.amountReceived),
              ...(values.note ? { note: values.note } : {}),
            },
            key,
          })
          message.success(T.confirmed)
          return true
        } catch (error) {
          message.error(messageOf(error))
          return false
        }
      }}
    >
      <div className={styles.help}>{T.confirmHelp}</div>
      <div className={styles.checkBank}>
        <Typography.Text type="secondary">{T.companyBank}</Typography.Text>
        <CompanyBankCell bank={notice.companyBank} />
      </div>
      <ProFormDigit
        name="amountReceived"
        label={`${T.amountReceived}（元）`}
        min={0.01}
        fieldProps={{ precision: 2, prefix: '¥', style: { width: '100%' } }}
        rules={[{ required: true, message: T.amountRequired }]}
      />
      <ProFormTextArea name="note" label={T.note} fieldProps={{ maxLength: 200 }} />
    </ModalForm>
  )
}

function RejectButton({ notice }: { notice: StaffRemittance }) {
  const reject = useRejectRemittance()
  const { message } = App.useApp()
  const [key, setKey] = useState(newIdempotencyKey)
  return (
    <ModalForm<{ note: string }>
      title={T.rejectTitle(notice.id)}
      width={460}
      trigger={
        <Button danger size="small">
          {T.reject}
        </Button>
      }
      modalProps={{ destroyOnHidden: true, afterClose: () => setKey(newIdempotencyKey()) }}
      onFinish={async (values) => {
        try {
          await reject.mutateAsync({ id: notice.id, note: values.note, key })
          message.success(T.rejected)
          return true
        } catch (error) {
          message.error(messageOf(error))
          return false
        }
      }}
    >
      <ProFormTextArea
        name="note"
        label={T.note}
        fieldProps={{ maxLength: 200 }}
        rules={[{ required: true, whitespace: true, message: T.rejectNoteRequired }]}
      />
    </ModalForm>
  )
}

const baseColumns: ProColumns<StaffRemittance>[] = [
  { title: T.id, dataIndex: 'id', width: 56 },
  {
    title: T.user,
    dataIndex: 'userId',
    width: 120,
    render: (_, n) => <BuyerCell userId={n.userId} />,
  },
  {
    title: T.amount,
    dataIndex: 'amount',
    align: 'right',
    width: 110,
    render: (_, n) => <Typography.Text strong>¥{yuanText(n.amount)}</Typography.Text>,
  },
  {
    title: T.payer,
    dataIndex: 'payerName',
    width: 150,
    render: (_, n) => (
      <span className={styles.payer}>
        <span>{n.payerName}</span>
        <Typography.Text type="secondary">{n.payerBank}</Typography.Text>
        <Typography.Text type="secondary">
          {T.remittedOn} {n.remittedOn}
        </Typography.Text>
      </span>
    ),
  },
  {
    title: T.companyBank,
    dataIndex: 'companyBank',
    width: 210,
    render: (_, n) => <CompanyBankCell bank={n.companyBank} />,
  },
  {
    title: T.orders,
    dataIndex: 'orderIds',
    width: 96,
    render: (_, n) =>
      n.orderIds.length === 0 ? (
        <Typography.Text type="secondary">{T.none}</Typography.Text>
      ) : (
        <Space size={4} wrap>
          {n.orderIds.map((id) => (
            <Tag key={id}>#{id}</Tag>
          ))}
        </Space>
      ),
  },
  {
    title: T.receipt,
    dataIndex: 'receiptUrl',
    width: 90,
    render: (_, n) => <ReceiptThumb id={n.id} present={n.receiptUrl !== null} />,
  },
  {
    title: T.submittedAt,
    dataIndex: 'createdAt',
    width: 140,
    render: (_, n) => chinaTime(n.createdAt),
  },
]

const waitingColumns: ProColumns<StaffRemittance>[] = [
  ...baseColumns,
  {
    title: T.actions,
    valueType: 'option',
    width: 160,
    render: (_, notice) => [
      <ConfirmButton key="confirm" notice={notice} />,
      <RejectButton key="reject" notice={notice} />,
    ],
  },
]

/** History is read, not checked against a statement: the payer's cell names the bank paid into. */
function PaidIntoLine({ bank }: { bank: StaffRemittance['companyBank'] }) {
  if (!bank) return <Typography.Text type="secondary">{T.companyBankGone}</Typography.Text>
  return (
    <Tooltip
      title={`${bank.bankName} ${bank.branch} · ${bank.accountName} · ${groupedAccountNo(bank.accountNo)}`}
    >
      <Typography.Text type="secondary">
        {T.paidInto(bank.bankName, bank.accountNo.slice(-4))}
      </Typography.Text>
    </Tooltip>
  )
}

const historyPayerColumn: ProColumns<StaffRemittance> = {
  title: T.payer,
  dataIndex: 'payerName',
  width: 170,
  render: (_, n) => (
    <span className={styles.payer}>
      <span>{n.payerName}</span>
      <Typography.Text type="secondary">{n.payerBank}</Typography.Text>
      <Typography.Text type="secondary">
        {T.remittedOn} {n.remittedOn}
      </Typography.Text>
      <PaidIntoLine bank={n.companyBank} />
    </span>
  ),
}

const decidedColumns: ProColumns<StaffRemittance>[] = [
  ...baseColumns
    .filter((c) => c.dataIndex !== 'receiptUrl' && c.dataIndex !== 'companyBank')
    .map((c) => (c.dataIndex === 'payerName' ? historyPayerColumn : c)),
  {
    title: T.status,
    dataIndex: 'status',
    width: 100,
    render: (_, n) => <Tag color={STATUS_TAGS[n.status].color}>{STATUS_TAGS[n.status].text}</Tag>,
  },
  {
    title: T.amountReceived,
    dataIndex: 'amountReceived',
    align: 'right',
    width: 100,
    render: (_, n) => (n.amountReceived === null ? '—' : `¥${yuanText(n.amountReceived)}`),
  },
  { title: T.note, dataIndex: 'note', ellipsis: true, render: (_, n) => n.note ?? '—' },
]

function RemittanceTable({ waiting }: { waiting: boolean }) {
  const list = useRemittances(waiting ? 'submitted' : undefined)
  const rows = waiting ? list.data : list.data?.filter((n) => n.status !== 'submitted')
  return (
    <ProTable<StaffRemittance>
      rowKey="id"
      search={false}
      options={{ reload: () => inBackground(list.refetch()), density: false, setting: false }}
      loading={list.isPending}
      dataSource={rows}
      columns={waiting ? waitingColumns : decidedColumns}
      pagination={{ pageSize: 10, showSizeChanger: false }}
    />
  )
}

/** 汇款确认: waiting notices to confirm (with what arrived) or reject; decided ones in history. */
export function RemittancesPage() {
  const waiting = useRemittances('submitted')
  return (
    <Tabs
      items={[
        {
          key: 'waiting',
          label: `${T.waiting}${waiting.data ? `（${waiting.data.length}）` : ''}`,
          children: <RemittanceTable waiting />,
        },
        { key: 'decided', label: T.decided, children: <RemittanceTable waiting={false} /> },
      ]}
    />
  )
}
