import { PageContainer, ProTable, type ProColumns } from '@ant-design/pro-components'
import { formatChinaDate } from '@numisma/contracts/dates'
import { formatFen } from '@numisma/contracts/money'
import type { LiveLot } from '@numisma/contracts/staff-sales'
import { Alert, Badge, Button, Card, Image, Space, Statistic, Tag, Typography } from 'antd'
import { Link } from 'react-router'
import { Countdown, useServerNow } from './countdown'
import styles from './live-page.module.css'
import { LoadError } from './load-error'
import { useLiveView, useSpecialsFollow } from './queries'
import { specialEnd } from './sale-specials'
import type { LiveConnection } from './connection'
import { SpecialPicker, useChosenSpecial } from './special-picker'
import { LOT_STATUS_TEXT, SALE_STATE_TEXT, SALES_TEXT as T } from './texts'
import { useLiveSale } from './use-live-sale'

const STATUS_COLOR = { preview: 'blue', live: 'red', sold: 'green', unsold: 'default' } as const

type Shown = Exclude<LiveConnection, 'idle'>
const CONNECTION_BADGE = {
  connecting: 'default',
  connected: 'processing',
  lost: 'warning',
  unreachable: 'error',
} as const satisfies Record<Shown, string>
const CONNECTION_TEXT: Record<Shown, string> = {
  connecting: T.connecting,
  connected: T.connected,
  lost: T.reconnecting,
  unreachable: T.unreachable,
}

/**
 * 实时拍卖: a running special's lots as bids arrive — price, bids, watchers, leader, reserve and a
 * countdown per lot, with what the sale has taken so far. Prices move over the push socket;
 * watcher counts with a read every 30 s.
 */
export function LivePage() {
  const { specials, specialId, choose } = useChosenSpecial()
  const live = useLiveView(specialId)
  const connection = useLiveSale(specialId, live.data)
  const now = useServerNow(live.data?.offset ?? 0)
  const view = live.data
  const special = view?.special
  useSpecialsFollow(specials.data, special)

  const columns: ProColumns<LiveLot>[] = [
    { title: T.lotNoColumn, dataIndex: 'lotNo', width: 84, align: 'center' },
    {
      title: T.lot,
      dataIndex: 'title',
      render: (_, lot) => (
        <Space>
          {lot.image ? (
            <Image src={lot.image} width={44} height={44} className={styles.thumb} />
          ) : (
            <div className={styles.noThumb} />
          )}
          <Typography.Text className={styles.title} ellipsis={{ tooltip: lot.title }}>
            {lot.title}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: T.price,
      dataIndex: 'price',
      width: 130,
      align: 'right',
      render: (_, lot) =>
        lot.price === null ? (
          <Typography.Text type="secondary">
            {T.startPrice} ¥{formatFen(lot.startPrice)}
          </Typography.Text>
        ) : (
          <span className={styles.price} data-testid={`price-${lot.id}`}>
            ¥{formatFen(lot.price)}
          </span>
        ),
    },
    {
      title: T.bidsColumn,
      dataIndex: 'bidCount',
      width: 100,
      align: 'center',
      render: (_, lot) => <span data-testid={`bids-${lot.id}`}>{lot.bidCount}</span>,
    },
    {
      title: T.watchersColumn,
      dataIndex: 'watchers',
      width: 100,
      align: 'center',
      render: (_, lot) => <span data-testid={`watchers-${lot.id}`}>{lot.watchers}</span>,
    },
    {
      title: T.leader,
      dataIndex: 'leader',
      width: 150,
      render: (_, lot) =>
        lot.leader ? (
          <Space direction="vertical" size={0}>
            <span>{lot.leader.mobile}</span>
            <Typography.Text type="secondary" className={styles.small}>
              ID {lot.leader.userId}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: T.reserve,
      dataIndex: 'reserveMet',
      width: 130,
      render: (_, lot) =>
        lot.reservePrice === null ? (
          <Typography.Text type="secondary">{T.noReserve}</Typography.Text>
        ) : (
          <Space direction="vertical" size={0}>
            <span>¥{formatFen(lot.reservePrice)}</span>
            <Tag color={lot.reserveMet ? 'green' : 'orange'} className={styles.small}>
              {lot.reserveMet ? T.reserveMet : T.reserveNotMet}
            </Tag>
          </Space>
        ),
    },
    {
      title: T.endsIn,
      dataIndex: 'endsAt',
      width: 150,
      render: (_, lot) =>
        lot.status === 'live' ? (
          <Space direction="vertical" size={0}>
            <Countdown endsAt={lot.endsAt} now={now} />
            <Typography.Text type="secondary" className={styles.small}>
              {formatChinaDate(lot.endsAt, 'MM-DD HH:mm:ss')}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">
            {formatChinaDate(lot.endsAt, 'MM-DD HH:mm:ss')}
          </Typography.Text>
        ),
    },
    {
      title: T.status,
      dataIndex: 'status',
      width: 88,
      render: (_, lot) => (
        <Tag color={STATUS_COLOR[lot.status]} data-testid={`status-${lot.id}`}>
          {LOT_STATUS_TEXT[lot.status]}
        </Tag>
      ),
    },
  ]

  return (
    <PageContainer
      title={T.live}
      extra={
        <SpecialPicker
          specials={specials.data ?? []}
          value={specialId}
          onChange={choose}
          loading={specials.isPending}
        />
      }
    >
      {special && (
        <Card className={styles.summary}>
          <div className={styles.head}>
            <Space size="middle">
              <Typography.Title level={5} className={styles.specialTitle}>
                {special.title}
              </Typography.Title>
              <Tag color={special.state === 'running' ? 'red' : undefined}>
                {SALE_STATE_TEXT[special.state]}
              </Tag>
              {special.state !== 'closed' && connection !== 'idle' && (
                <Badge
                  status={CONNECTION_BADGE[connection]}
                  text={CONNECTION_TEXT[connection]}
                  data-testid="live-connection"
                />
              )}
            </Space>
            <Typography.Text type="secondary">
              {formatChinaDate(special.startsAt, 'MM-DD HH:mm')} —{' '}
              {formatChinaDate(specialEnd(special), 'MM-DD HH:mm')}
            </Typography.Text>
          </div>
          {view && (
            <div className={styles.stats}>
              <Statistic
                title={T.hammerSoFar}
                prefix="¥"
                value={formatFen(view.totals.hammer)}
                data-testid="total-hammer"
              />
              <Statistic
                title={T.lotsSold}
                value={view.totals.sold}
                suffix={`/ ${view.totals.lots}`}
              />
              <Statistic title={T.totalBids} value={view.totals.bids} data-testid="total-bids" />
              <Statistic title={T.totalWatchers} value={view.totals.watchers} />
            </div>
          )}
        </Card>
      )}
      {(live.isError || specials.isError) && (
        <LoadError retry={() => Promise.all([live.refetch(), specials.refetch()])} />
      )}
      {special?.state === 'closed' && (
        <Alert
          className={styles.note}
          type="info"
          showIcon
          message={T.closedNote}
          action={
            <Link to={`/sales/results?special=${special.id}`}>
              <Button size="small">{T.viewResults}</Button>
            </Link>
          }
        />
      )}
      <ProTable<LiveLot>
        rowKey="id"
        columns={columns}
        dataSource={view?.lots ?? []}
        loading={live.isPending && specialId !== null}
        search={false}
        options={false}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: T.liveEmpty }}
        rowClassName={(lot) => (lot.status === 'live' ? '' : (styles.closedRow ?? ''))}
        cardProps={{ bodyStyle: { padding: 0 } }}
      />
    </PageContainer>
  )
}
