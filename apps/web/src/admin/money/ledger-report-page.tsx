import { DownloadOutlined } from '@ant-design/icons'
import { ProCard, ProTable, type ProColumns } from '@ant-design/pro-components'
import { accountKindLabel, transferKindLabel } from '@numisma/contracts/ledger-labels'
import type { LedgerDailyReport } from '@numisma/contracts/staff-money'
import { Alert, Button, DatePicker, Statistic, Tag } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { dailyLedgerCsvUrl } from './api'
import { chinaToday, moneyText as money, yuanText } from './format'
import { useDailyLedger } from './queries'
import { MONEY_TEXT as T } from './texts'
import styles from './ledger-report-page.module.css'

type TransferGroup = LedgerDailyReport['transfers'][number]
type AccountRow = LedgerDailyReport['accounts'][number]

const groupColumns: ProColumns<TransferGroup>[] = [
  { title: T.kind, dataIndex: 'kind', render: (_, g) => transferKindLabel(g.kind) },
  { title: T.count, dataIndex: 'count', align: 'right', width: 80 },
  { title: T.amount, dataIndex: 'total', align: 'right', render: (_, g) => money(g.total) },
]

const accountColumns: ProColumns<AccountRow>[] = [
  { title: T.account, dataIndex: 'kind', render: (_, a) => accountKindLabel(a.kind) },
  { title: T.opening, dataIndex: 'opening', align: 'right', render: (_, a) => money(a.opening) },
  { title: T.in, dataIndex: 'in', align: 'right', render: (_, a) => money(a.in) },
  { title: T.out, dataIndex: 'out', align: 'right', render: (_, a) => money(a.out) },
  { title: T.closing, dataIndex: 'closing', align: 'right', render: (_, a) => money(a.closing) },
  {
    title: T.rollsForward,
    dataIndex: 'rollsForward',
    align: 'center',
    width: 70,
    render: (_, a) =>
      a.rollsForward ? <Tag color="green">{T.ok}</Tag> : <Tag color="red">{T.notOk}</Tag>,
  },
]

function Report({ report }: { report: LedgerDailyReport }) {
  const { check } = report
  return (
    <>
      <Alert
        type={check.balanced ? 'success' : 'error'}
        showIcon
        message={check.balanced ? T.balancedTitle : T.unbalancedTitle}
        data-balanced={check.balanced}
      />
      <ProCard>
        <div className={styles.checks}>
          <Statistic title={T.transferCount} value={report.transferCount} />
          <Statistic
            title={T.postingsSum}
            value={yuanText(check.postingsSum)}
            prefix="¥"
            className={check.postingsSum === 0 ? undefined : styles.bad}
          />
          <Statistic
            title={T.closingSum}
            value={yuanText(check.closingSum)}
            prefix="¥"
            className={check.closingSum === 0 ? undefined : styles.bad}
          />
          <Statistic
            title={T.unbalancedTransfers}
            value={
              check.unbalancedTransfers.length === 0
                ? T.none
                : check.unbalancedTransfers.map((id) => `#${id}`).join(' ')
            }
            className={check.unbalancedTransfers.length === 0 ? undefined : styles.bad}
          />
        </div>
      </ProCard>
      <div className={styles.tables}>
        <ProTable<TransferGroup>
          headerTitle={T.byKind}
          rowKey="kind"
          search={false}
          options={false}
          pagination={false}
          dataSource={report.transfers}
          columns={groupColumns}
        />
        <ProTable<AccountRow>
          headerTitle={T.byAccount}
          rowKey="kind"
          search={false}
          options={false}
          pagination={false}
          dataSource={report.accounts}
          columns={accountColumns}
        />
      </div>
    </>
  )
}

/** 日账报表: the China day's ledger, whether it balances, and its CSV. */
export function LedgerReportPage() {
  const [date, setDate] = useState(chinaToday)
  const report = useDailyLedger(date)
  return (
    <div className={styles.page}>
      <ProCard>
        <div className={styles.toolbar}>
          <DatePicker
            value={dayjs(date)}
            allowClear={false}
            onChange={(value) => {
              if (value) setDate(value.format('YYYY-MM-DD'))
            }}
            aria-label={T.date}
          />
          <Button icon={<DownloadOutlined />} href={dailyLedgerCsvUrl(date)}>
            {T.exportCsv}
          </Button>
        </div>
      </ProCard>
      {report.data ? <Report report={report.data} /> : <ProCard loading />}
    </div>
  )
}
