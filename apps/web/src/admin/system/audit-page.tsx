import { ProCard } from '@ant-design/pro-components'
import type { AuditEntry } from '@numisma/contracts/staff'
import { staffActionName } from '@numisma/contracts/staff-actions'
import {
  Button,
  Descriptions,
  Form,
  Input,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useMemo, useState } from 'react'
import { inBackground } from '../../lib/background'
import styles from './audit-page.module.css'
import { repeatedCalls } from './audit-repeats'
import { type AuditFilter, useAudit, useStaffMembers } from './queries'
import { SYSTEM_TEXT as T } from './texts'

const json = (value: unknown) =>
  value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)

const chinaTime = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
})

/** A check that writes nothing (the CSV import's 校验) reads apart from the real thing. */
const isDryRun = (entry: AuditEntry): boolean =>
  typeof entry.body === 'object' &&
  entry.body !== null &&
  (entry.body as { dryRun?: unknown }).dryRun === true

const columnsFor = (repeats: Set<number>): ColumnsType<AuditEntry> => [
  {
    title: T.time,
    dataIndex: 'at',
    width: 170,
    render: (at: string) => chinaTime.format(new Date(at)),
  },
  { title: T.staff, dataIndex: 'username', width: 120 },
  {
    title: T.action,
    dataIndex: 'action',
    width: 170,
    render: (action: string, entry) => (
      <Tooltip title={action}>
        {staffActionName(entry.method, entry.route) ?? action}
        {isDryRun(entry) ? T.dryRun : ''}
      </Tooltip>
    ),
  },
  {
    title: T.route,
    dataIndex: 'route',
    width: 280,
    render: (route: string, entry) => (
      <Typography.Text code className={styles.route}>
        {entry.method} {route.replace('/svc/main/admin', '')}
      </Typography.Text>
    ),
  },
  {
    title: T.target,
    dataIndex: 'target',
    width: 130,
    render: (target: string | null) => target ?? '—',
  },
  {
    title: T.result,
    dataIndex: 'statusCode',
    width: 150,
    render: (status: number, entry) =>
      repeats.has(entry.id) ? (
        <Tooltip title={T.repeatHelp}>
          <Tag color="blue">{T.repeat}</Tag>
        </Tooltip>
      ) : status < 400 ? (
        <Tag color="green">{T.ok}</Tag>
      ) : (
        <Tag color="red">
          {T.refused} {entry.errorCode ?? status}
        </Tag>
      ),
  },
]

function Detail({ entry }: { entry: AuditEntry }) {
  return (
    <Descriptions size="small" column={2} bordered className={styles.detail}>
      {(
        [
          [T.params, entry.params],
          [T.body, entry.body],
          [T.before, entry.before],
          [T.after, entry.after],
          [T.idempotencyKey, entry.idempotencyKey],
        ] as const
      ).map(([label, value]) => (
        <Descriptions.Item key={label} label={label}>
          <pre className={styles.json}>{json(value)}</pre>
        </Descriptions.Item>
      ))}
    </Descriptions>
  )
}

/** The audit log (admin): every staff change, newest first, with what it was before and after. */
export function AuditPage() {
  const [filter, setFilter] = useState<AuditFilter>({})
  const [form] = Form.useForm<AuditFilter>()
  const members = useStaffMembers()
  const audit = useAudit(filter)
  const rows = useMemo(() => audit.data?.pages.flat() ?? [], [audit.data])
  const columns = useMemo(() => columnsFor(repeatedCalls(rows)), [rows])

  const apply = (values: AuditFilter) =>
    setFilter({
      staffId: values.staffId,
      route: values.route?.trim() || undefined,
      target: values.target?.trim() || undefined,
    })

  return (
    <ProCard title={T.audit} headerBordered>
      <Form form={form} layout="inline" onFinish={apply} className={styles.filters}>
        <Form.Item name="staffId">
          <Select
            allowClear
            placeholder={T.filterStaff}
            className={styles.select}
            options={members.data?.map((m) => ({ label: m.username, value: m.id }))}
          />
        </Form.Item>
        <Form.Item name="route">
          <Input allowClear placeholder={T.filterRoute} />
        </Form.Item>
        <Form.Item name="target">
          <Input allowClear placeholder={T.filterTarget} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {T.search}
          </Button>
          <Button
            onClick={() => {
              form.resetFields()
              setFilter({})
            }}
          >
            {T.reset}
          </Button>
        </Space>
      </Form>
      <Table<AuditEntry>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={audit.isPending}
        pagination={false}
        expandable={{ expandedRowRender: (entry) => <Detail entry={entry} /> }}
        data-testid="audit-table"
      />
      <div className={styles.more}>
        {audit.hasNextPage ? (
          <Button
            loading={audit.isFetchingNextPage}
            onClick={() => inBackground(audit.fetchNextPage())}
          >
            {T.loadMore}
          </Button>
        ) : rows.length > 0 ? (
          <Typography.Text type="secondary">{T.noMore}</Typography.Text>
        ) : null}
      </div>
    </ProCard>
  )
}
