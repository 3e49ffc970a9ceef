import {
  ModalForm,
  ProCard,
  ProDescriptions,
  ProFormDigit,
  ProFormRadio,
  ProFormTextArea,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import {
  accountKindLabel,
  ledgerLineSummary,
  transferKindLabel,
} from '@numisma/contracts/ledger-labels'
import { yuanToFen } from '@numisma/contracts/money'
import type {
  AdjustmentRequest,
  MoneyLedgerLine,
  MoneyUser,
  MoneyUserQuery,
} from '@numisma/contracts/staff-money'
import { App, Button, Empty, Input, Result, Select, Statistic, Tag } from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { chinaTime, messageOf, nameOf, newIdempotencyKey, signedYuan, yuanText } from './format'
import { useAdjustAccount, useLedgerLines, useMoneyUser } from './queries'
import { MONEY_TEXT as T, ORDER_STATUS_NAMES } from './texts'
import styles from './accounts-page.module.css'

const PAGE_SIZE = 10

type AdjustValues = Omit<AdjustmentRequest, 'amount'> & { amount: number }

function AdjustButton({ user }: { user: MoneyUser }) {
  const adjust = useAdjustAccount()
  const { message } = App.useApp()
  const [key, setKey] = useState(newIdempotencyKey)
  return (
    <ModalForm<AdjustValues>
      title={`${T.adjustTitle} · ${user.mobile}`}
      width={480}
      trigger={<Button type="primary">{T.adjust}</Button>}
      initialValues={{ account: 'balance', direction: 'credit' }}
      modalProps={{ destroyOnHidden: true, afterClose: () => setKey(newIdempotencyKey()) }}
      onFinish={async (values) => {
        try {
          const done = await adjust.mutateAsync({
            userId: user.userId,
            request: { ...values, amount: yuanToFen(values.amount) },
            key,
          })
          message.success(
            `${T.adjusted}：${T.balance} ¥${yuanText(done.after.balance)}，${T.deposit} ¥${yuanText(done.after.deposit)}`,
          )
          return true
        } catch (error) {
          message.error(messageOf(error))
          return false
        }
      }}
    >
      <ProFormRadio.Group
        name="account"
        label={T.account}
        radioType="button"
        options={[
          { label: T.balance, value: 'balance' },
          { label: T.deposit, value: 'deposit' },
        ]}
      />
      <ProFormRadio.Group
        name="direction"
        label={T.direction}
        radioType="button"
        options={[
          { label: T.credit, value: 'credit' },
          { label: T.debit, value: 'debit' },
        ]}
      />
      <ProFormDigit
        name="amount"
        label={`${T.amount}（元）`}
        min={0.01}
        fieldProps={{ precision: 2, prefix: '¥', style: { width: '100%' } }}
        rules={[{ required: true, message: T.amountRequired }]}
      />
      <ProFormTextArea
        name="reason"
        label={T.reason}
        fieldProps={{ maxLength: 200 }}
        rules={[{ required: true, whitespace: true, min: 2, message: T.reasonRequired }]}
      />
    </ModalForm>
  )
}

const lineColumns: ProColumns<MoneyLedgerLine>[] = [
  { title: T.at, dataIndex: 'at', width: 150, render: (_, l) => chinaTime(l.at) },
  { title: T.transferId, dataIndex: 'transferId', width: 80 },
  {
    title: T.kind,
    dataIndex: 'kind',
    width: 140,
    render: (_, l) => transferKindLabel(l.kind),
  },
  {
    title: T.account,
    dataIndex: 'account',
    width: 110,
    render: (_, l) => accountKindLabel(l.account),
  },
  {
    title: T.amount,
    dataIndex: 'amount',
    align: 'right',
    width: 130,
    render: (_, l) => (
      <span className={l.amount > 0 ? styles.credit : styles.debit}>{signedYuan(l.amount)}</span>
    ),
  },
  // References and the reason staff typed; the transfer's English memo stays in the API.
  {
    title: T.memo,
    dataIndex: 'refs',
    ellipsis: true,
    render: (_, l) => ledgerLineSummary(l) || '—',
  },
]

function UserAccounts({ user }: { user: MoneyUser }) {
  const [page, setPage] = useState(1)
  const lines = useLedgerLines(user.userId, page, PAGE_SIZE)
  const stats: [string, number][] = [
    [T.balance, user.balances.balance],
    [T.deposit, user.balances.deposit],
    [T.withdrawal, user.balances.withdrawal],
    [T.quota, user.quota],
    [T.exposure, user.exposure],
    [T.freeDeposit, user.freeDeposit],
  ]
  return (
    <>
      <ProCard title={`${user.display} · ${user.mobile}`} extra={<AdjustButton user={user} />}>
        <ProDescriptions column={3} size="small">
          <ProDescriptions.Item label={T.userId}>{user.userId}</ProDescriptions.Item>
          <ProDescriptions.Item label={T.mobile}>{user.mobile}</ProDescriptions.Item>
          <ProDescriptions.Item label={T.registeredAt}>
            {chinaTime(user.createdAt)}
          </ProDescriptions.Item>
        </ProDescriptions>
        <div className={styles.stats}>
          {stats.map(([title, fen]) => (
            <Statistic key={title} title={title} value={yuanText(fen)} prefix="¥" />
          ))}
        </div>
      </ProCard>
      <ProCard title={T.ordersSummary}>
        {user.orders.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.noOrders} />
        ) : (
          <div className={styles.orders}>
            {user.orders.map((o) => (
              <Tag key={o.status}>
                {nameOf(ORDER_STATUS_NAMES, o.status)} {o.count} 笔 · ¥{yuanText(o.total)}
              </Tag>
            ))}
          </div>
        )}
      </ProCard>
      <ProTable<MoneyLedgerLine>
        headerTitle={T.ledgerLines}
        rowKey={(l) => `${l.transferId}-${l.account}`}
        search={false}
        options={false}
        loading={lines.isFetching}
        dataSource={lines.data?.data}
        columns={lineColumns}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: lines.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
      />
    </>
  )
}

/** 用户账户: look a user up by mobile or id; balances, quota, orders, ledger lines, adjustments. */
export function AccountsPage() {
  // A link from another money page names the user: `?id=3`.
  const [params] = useSearchParams()
  const linked = Number(params.get('id'))
  const [by, setBy] = useState<'mobile' | 'id'>(linked > 0 ? 'id' : 'mobile')
  const [query, setQuery] = useState<MoneyUserQuery | null>(linked > 0 ? { id: linked } : null)
  const user = useMoneyUser(query)
  const search = (text: string) => {
    const value = text.trim()
    if (value === '') return
    setQuery(by === 'mobile' ? { mobile: value } : { id: Number(value) })
  }
  return (
    <div className={styles.page}>
      <ProCard>
        <div className={styles.searchBar}>
          <Select
            value={by}
            onChange={setBy}
            style={{ width: 110 }}
            options={[
              { label: T.mobile, value: 'mobile' },
              { label: T.userId, value: 'id' },
            ]}
          />
          <Input.Search
            defaultValue={linked > 0 ? String(linked) : undefined}
            placeholder={T.lookupHelp}
            enterButton={T.search}
            allowClear
            style={{ maxWidth: 420 }}
            onSearch={search}
            loading={user.isFetching}
            aria-label={T.lookup}
          />
        </div>
      </ProCard>
      {user.isError ? (
        <Result status="warning" title={T.notFound} subTitle={messageOf(user.error)} />
      ) : null}
      {user.data ? <UserAccounts key={user.data.userId} user={user.data} /> : null}
    </div>
  )
}
