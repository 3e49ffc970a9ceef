import { ModalForm, ProFormTextArea, ProTable, type ProColumns } from '@ant-design/pro-components'
import type { StaffWithdrawal } from '@numisma/contracts/account'
import { App, Button, Tabs, Tag, Typography } from 'antd'
import { useState } from 'react'
import { inBackground } from '../../lib/background'
import { BuyerCell } from './buyer-cell'
import { chinaTime, messageOf, nameOf, newIdempotencyKey, yuanText } from './format'
import { useDecideWithdrawal, useWithdrawals } from './queries'
import { MONEY_TEXT as T, SOURCE_NAMES } from './texts'
import styles from './withdrawals-page.module.css'

const STATUS_TAGS: Record<StaffWithdrawal['status'], { color: string; text: string }> = {
  requested: { color: 'gold', text: T.waiting },
  paid: { color: 'green', text: T.pay },
  refused: { color: 'red', text: T.refuse },
}

function DecideButton({
  withdrawal,
  decision,
}: {
  withdrawal: StaffWithdrawal
  decision: 'pay' | 'refuse'
}) {
  const decide = useDecideWithdrawal()
  const { message } = App.useApp()
  const [key, setKey] = useState(newIdempotencyKey)
  const pay = decision === 'pay'
  return (
    <ModalForm<{ note?: string }>
      title={pay ? `${T.pay} · #${withdrawal.id}` : T.refuseTitle(withdrawal.id)}
      width={460}
      trigger={
        <Button size="small" type={pay ? 'primary' : 'default'} danger={!pay}>
          {pay ? T.pay : T.refuse}
        </Button>
      }
      modalProps={{ destroyOnHidden: true, afterClose: () => setKey(newIdempotencyKey()) }}
      onFinish={async (values) => {
        try {
          await decide.mutateAsync({ id: withdrawal.id, decision, note: values.note, key })
          message.success(pay ? T.paid : T.refused)
          return true
        } catch (error) {
          message.error(messageOf(error))
          return false
        }
      }}
    >
      {pay ? (
        <Typography.Paragraph>
          {T.payConfirm} ¥{yuanText(withdrawal.amount)} → {withdrawal.bankName}{' '}
          {withdrawal.accountName} {withdrawal.accountNo}
        </Typography.Paragraph>
      ) : null}
      <ProFormTextArea
        name="note"
        label={T.note}
        fieldProps={{ maxLength: 200 }}
        rules={pay ? [] : [{ required: true, whitespace: true, message: T.rejectNoteRequired }]}
      />
    </ModalForm>
  )
}

const baseColumns: ProColumns<StaffWithdrawal>[] = [
  { title: T.id, dataIndex: 'id', width: 70 },
  {
    title: T.user,
    dataIndex: 'userId',
    width: 120,
    render: (_, w) => <BuyerCell userId={w.userId} />,
  },
  {
    title: T.amount,
    dataIndex: 'amount',
    align: 'right',
    width: 120,
    render: (_, w) => <Typography.Text strong>¥{yuanText(w.amount)}</Typography.Text>,
  },
  {
    title: T.source,
    dataIndex: 'source',
    width: 80,
    render: (_, w) => nameOf(SOURCE_NAMES, w.source),
  },
  {
    title: T.bank,
    dataIndex: 'bankName',
    render: (_, w) => (
      <span className={styles.account}>
        <span>
          {w.bankName} · {w.accountName}
        </span>
        <span className={styles.accountNo}>{w.accountNo}</span>
      </span>
    ),
  },
  {
    title: T.requestedAt,
    dataIndex: 'createdAt',
    width: 150,
    render: (_, w) => chinaTime(w.createdAt),
  },
]

const waitingColumns: ProColumns<StaffWithdrawal>[] = [
  ...baseColumns,
  {
    title: T.actions,
    valueType: 'option',
    width: 160,
    render: (_, w) => [
      <DecideButton key="pay" withdrawal={w} decision="pay" />,
      <DecideButton key="refuse" withdrawal={w} decision="refuse" />,
    ],
  },
]

const decidedColumns: ProColumns<StaffWithdrawal>[] = [
  ...baseColumns,
  {
    title: T.status,
    dataIndex: 'status',
    width: 90,
    render: (_, w) => <Tag color={STATUS_TAGS[w.status].color}>{STATUS_TAGS[w.status].text}</Tag>,
  },
  {
    title: T.decidedAt,
    dataIndex: 'decidedAt',
    width: 150,
    render: (_, w) => chinaTime(w.decidedAt),
  },
  { title: T.note, dataIndex: 'note', ellipsis: true, render: (_, w) => w.note ?? '—' },
]

function WithdrawalTable({ waiting }: { waiting: boolean }) {
  const list = useWithdrawals(waiting ? 'requested' : undefined)
  const rows = waiting ? list.data : list.data?.filter((w) => w.status !== 'requested')
  return (
    <ProTable<StaffWithdrawal>
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

/** 提现: withdrawals waiting to be paid out (or refused, the money going back); decided ones. */
export function WithdrawalsPage() {
  const waiting = useWithdrawals('requested')
  return (
    <Tabs
      items={[
        {
          key: 'waiting',
          label: `${T.waiting}${waiting.data ? `（${waiting.data.length}）` : ''}`,
          children: <WithdrawalTable waiting />,
        },
        { key: 'decided', label: T.decided, children: <WithdrawalTable waiting={false} /> },
      ]}
    />
  )
}
