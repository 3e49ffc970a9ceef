import { PlusOutlined } from '@ant-design/icons'
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components'
import type { StaffSpecial } from '@numisma/contracts/staff-catalogue'
import { Button, Image, Tag, Typography } from 'antd'
import { useRef } from 'react'
import { Link, useNavigate } from 'react-router'
import { inBackground } from '../../lib/background'
import { photoThumb } from '../components/photo-api'
import { getSpecials } from './api'
import { chinaTime } from './format'
import { SpecialDrawer } from './special-form'
import styles from './specials-page.module.css'
import { CATALOGUE_TEXT as T } from './texts'

export const STATUS_COLOR = { preview: 'blue', live: 'red', ended: 'default' } as const

const STATUS_FILTER = {
  preview: { text: T.specialStatus.preview },
  live: { text: T.specialStatus.live },
  ended: { text: T.specialStatus.ended },
}

/** 专场管理: every special, newest first, with its status and totals; create and edit. */
export function SpecialsPage() {
  const table = useRef<ActionType>(null)
  const navigate = useNavigate()
  const reload = () => inBackground(table.current?.reload())

  const columns: ProColumns<StaffSpecial>[] = [
    {
      title: T.keyword,
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: T.keywordPlaceholder },
    },
    {
      title: T.status,
      dataIndex: 'status',
      hideInTable: true,
      valueType: 'select',
      valueEnum: STATUS_FILTER,
    },
    {
      title: T.cover,
      dataIndex: 'cover',
      search: false,
      width: 88,
      render: (_, s) =>
        s.cover ? (
          <Image
            className={styles.cover}
            width={64}
            height={40}
            src={photoThumb(s.cover)}
            preview={{ src: s.cover }}
          />
        ) : (
          <span className={styles.noCover} />
        ),
    },
    {
      title: T.special,
      dataIndex: 'title',
      search: false,
      render: (_, s) => (
        <div className={styles.titleCell}>
          <Link to={`/catalogue/specials/${s.id}`} className={styles.title}>
            {s.title}
          </Link>
          {s.subtitle && (
            <Typography.Text type="secondary" className={styles.subtitle} ellipsis>
              {s.subtitle}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: T.status,
      dataIndex: 'status',
      search: false,
      width: 88,
      render: (_, s) => <Tag color={STATUS_COLOR[s.status]}>{T.specialStatus[s.status]}</Tag>,
    },
    {
      title: T.startsAt,
      dataIndex: 'startsAt',
      search: false,
      width: 150,
      render: (_, s) => <span className={styles.time}>{chinaTime(s.startsAt)}</span>,
    },
    {
      title: T.lastEndsAt,
      dataIndex: 'lastEndsAt',
      search: false,
      width: 150,
      render: (_, s) => <span className={styles.time}>{chinaTime(s.lastEndsAt)}</span>,
    },
    { title: T.lotCount, dataIndex: 'lotCount', search: false, align: 'right', width: 80 },
    { title: T.bidCount, dataIndex: 'bidCount', search: false, align: 'right', width: 90 },
    {
      title: T.actions,
      valueType: 'option',
      width: 100,
      render: (_, s) => [
        <SpecialDrawer key="edit" special={s} trigger={<a>{T.edit}</a>} onSaved={reload} />,
        <Link key="lots" to={`/catalogue/specials/${s.id}`}>
          {T.lots}
        </Link>,
      ],
    },
  ]

  return (
    <ProTable<StaffSpecial>
      className={styles.table}
      headerTitle={T.specials}
      rowKey="id"
      actionRef={table}
      columns={columns}
      options={false}
      search={{ labelWidth: 'auto' }}
      pagination={{ defaultPageSize: 10, showSizeChanger: false }}
      request={async (params: {
        current?: number
        pageSize?: number
        keyword?: unknown
        status?: unknown
      }) => {
        const status = ['preview', 'live', 'ended'].find((s) => s === params.status) as
          StaffSpecial['status'] | undefined
        const page = await getSpecials({
          keyword: typeof params.keyword === 'string' ? params.keyword : undefined,
          status: status ?? 'all',
          page: params.current ?? 1,
          pageSize: params.pageSize ?? 10,
        })
        return { data: page.items, total: page.total, success: true }
      }}
      toolBarRender={() => [
        <SpecialDrawer
          key="new"
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newSpecial}
            </Button>
          }
          onSaved={(id) => inBackground(navigate(`/catalogue/specials/${id}`))}
        />,
      ]}
    />
  )
}
