import { DownloadOutlined } from '@ant-design/icons'
import { PageContainer, ProTable, type ProColumns } from '@ant-design/pro-components'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import { mayAccess } from '@numisma/contracts/staff'
import {
  resultOutcomeParts,
  type ResultLot,
  type SalesSpecial,
} from '@numisma/contracts/staff-sales'
import { Button, Card, Space, Statistic, Tag, Typography } from 'antd'
import { Link } from 'react-router'
import { useStaffSession } from '../staff-queries'
import { resultsCsvUrl } from './api'
import { LoadError } from './load-error'
import { RelistButton } from './relist-button'
import styles from './results-page.module.css'
import { useResults, useSpecialsFollow } from './queries'
import { shownBuyer } from './result-lots'
import { specialEnd } from './sale-specials'
import { SpecialPicker, useChosenSpecial } from './special-picker'
import { ORDER_STATUS_TEXT, SALE_STATE_TEXT, SALES_TEXT as T } from './texts'

const STATUS_COLOR = { preview: 'blue', live: 'red', sold: 'green', unsold: 'default' } as const
const ORDER_COLOR = {
  pending_payment: 'gold',
  paid: 'green',
  delivery_applied: 'cyan',
  shipped: 'cyan',
  completed: 'green',
  cancelled: 'default',
  overdue: 'red',
} as const

/** Without a special in the address: the latest closed one, else the first of the list. */
const latestClosed = (list: SalesSpecial[]) => list.find((s) => s.state === 'closed') ?? list[0]

/**
 * 结拍结果: per lot sold or unsold (and why: below its reserve, or no bid), hammer and buyer with
 * their order's state — or, unsold below the reserve, the highest bid and bidder the house may
 * call — the sale's totals, a CSV of it all, and 重新上拍 for what did not sell (or was forfeited).
 */
export function ResultsPage() {
  const { specials, specialId, choose } = useChosenSpecial(latestClosed)
  const results = useResults(specialId)
  const session = useStaffSession()
  const mayRelist = mayAccess(session.data?.roles ?? [], ['cataloguer'])
  const data = results.data
  useSpecialsFollow(specials.data, data?.special)

  const columns: ProColumns<ResultLot>[] = [
    { title: T.lotNoColumn, dataIndex: 'lotNo', width: 60, align: 'center' },
    {
      title: T.lot,
      dataIndex: 'title',
      render: (_, lot) => (
        <Typography.Text className={styles.title} ellipsis={{ tooltip: lot.title }}>
          {lot.title}
        </Typography.Text>
      ),
    },
    {
      title: T.outcome,
      dataIndex: 'status',
      width: 150,
      render: (_, lot) => {
        const { word, reason } = resultOutcomeParts(lot)
        return (
          <span className={styles.outcome} data-testid={`outcome-${lot.id}`}>
            <Tag color={STATUS_COLOR[lot.status]}>{word}</Tag>
            {reason && (
              <Typography.Text type="secondary" className={styles.reason}>
                {reason}
              </Typography.Text>
            )}
          </span>
        )
      },
    },
    {
      title: T.priceColumn,
      dataIndex: 'hammer',
      width: 110,
      align: 'right',
      render: (_, lot) =>
        lot.hammer !== null ? (
          <Space direction="vertical" size={0} data-testid={`price-${lot.id}`}>
            <span className={styles.price}>¥{formatFen(lot.hammer)}</span>
            <Typography.Text type="secondary" className={styles.small}>
              {T.hammer}
            </Typography.Text>
          </Space>
        ) : lot.highestBid !== null ? (
          <Space direction="vertical" size={0} data-testid={`price-${lot.id}`}>
            <span>¥{formatFen(lot.highestBid)}</span>
            <Typography.Text type="secondary" className={styles.small}>
              {lot.status === 'unsold' ? T.highestBid : T.currentPrice}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { title: T.bidsColumn, dataIndex: 'bidCount', width: 60, align: 'center' },
    {
      title: T.buyer,
      dataIndex: 'buyer',
      width: 160,
      render: (_, lot) => {
        const shown = shownBuyer(lot)
        return shown ? (
          <Space direction="vertical" size={0} data-testid={`buyer-${lot.id}`}>
            <span>{shown.buyer.mobile}</span>
            <Typography.Text type="secondary" className={styles.small}>
              ID {shown.buyer.userId}
              {shown.role === 'highestBidder' && ` · ${T.highestBidder}`}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        )
      },
    },
    {
      title: T.order,
      dataIndex: 'order',
      width: 130,
      render: (_, lot) =>
        lot.order ? (
          <Space size={4}>
            <span>#{lot.order.id}</span>
            <Tag color={ORDER_COLOR[lot.order.status]}>{ORDER_STATUS_TEXT[lot.order.status]}</Tag>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: T.actions,
      dataIndex: 'relistable',
      width: 150,
      render: (_, lot) =>
        lot.relistedAs ? (
          <Link to={`/sales/live?special=${lot.relistedAs.specialId}`} className={styles.small}>
            {T.relisted(lot.relistedAs.lotId, lot.relistedAs.specialId)}
          </Link>
        ) : lot.relistable ? (
          <RelistButton lot={lot} allowed={mayRelist} />
        ) : null,
    },
  ]

  return (
    <PageContainer
      title={T.results}
      extra={
        <SpecialPicker
          specials={specials.data ?? []}
          value={specialId}
          onChange={choose}
          loading={specials.isPending}
        />
      }
    >
      {data && (
        <Card className={styles.summary}>
          <div className={styles.head}>
            <Space size="middle">
              <Typography.Title level={5} className={styles.specialTitle}>
                {data.special.title}
              </Typography.Title>
              <Tag>{SALE_STATE_TEXT[data.special.state]}</Tag>
              <Typography.Text type="secondary">
                {formatChinaDate(specialEnd(data.special), 'YYYY-MM-DD HH:mm')}
              </Typography.Text>
            </Space>
            <Button
              icon={<DownloadOutlined />}
              href={resultsCsvUrl(data.special.id)}
              download
              data-testid="export-csv"
            >
              {T.exportCsv}
            </Button>
          </div>
          <div className={styles.stats}>
            <Statistic
              title={T.soldCount}
              value={data.totals.sold}
              suffix={`/ ${data.totals.lots}`}
              data-testid="sold-count"
            />
            <Statistic title={T.unsoldCount} value={data.totals.unsold} />
            <Statistic title={T.hammerTotal} prefix="¥" value={formatFen(data.totals.hammer)} />
            <Statistic
              title={T.sellThrough}
              value={data.totals.sellThrough}
              precision={1}
              suffix="%"
              data-testid="sell-through"
            />
          </div>
        </Card>
      )}
      {(results.isError || specials.isError) && (
        <LoadError retry={() => Promise.all([results.refetch(), specials.refetch()])} />
      )}
      <ProTable<ResultLot>
        rowKey="id"
        columns={columns}
        dataSource={data?.lots ?? []}
        loading={results.isPending && specialId !== null}
        search={false}
        options={false}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: T.liveEmpty }}
        cardProps={{ bodyStyle: { padding: 0 } }}
      />
    </PageContainer>
  )
}
