import {
  ArrowLeftOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons'
import { ProDescriptions, ProTable, type ProColumns } from '@ant-design/pro-components'
import { gradeName, hasGrade } from '@numisma/contracts/grades'
import { formatFen } from '@numisma/contracts/money'
import type { StaffLot, StaffSpecialDetail } from '@numisma/contracts/staff-catalogue'
import {
  App,
  Button,
  Card,
  Image,
  Popconfirm,
  Result,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd'
import { Link, useParams } from 'react-router'
import { inBackground } from '../../lib/background'
import { photoThumb } from '../components/photo-api'
import { staffErrorMessage } from '../staff-api'
import { LOT_IMPORT_TEMPLATE_URL } from './api'
import { chinaTime, durationText } from './format'
import { LotDrawer } from './lot-form'
import { useSpecial, useWithdrawLot } from './queries'
import { SpecialDrawer } from './special-form'
import styles from './special-page.module.css'
import { STATUS_COLOR } from './specials-page'
import { CATALOGUE_TEXT as T } from './texts'

const LOT_STATUS_COLOR = { preview: 'blue', live: 'red', sold: 'green', unsold: 'default' } as const

const yuan = (fen: number) => `¥${formatFen(fen)}`

/** PCGS 九品 · 证书号 123 — what is known of the lot's grading. */
const lotFacts = (lot: StaffLot): string =>
  [
    [lot.gradingService, hasGrade(lot.gradeCode) ? gradeName(lot.gradeCode) : null]
      .filter(Boolean)
      .join(' '),
    lot.certNo ? `${T.certNo} ${lot.certNo}` : '',
  ]
    .filter((part) => part !== '')
    .join(' · ')

/** A special's page: its settings and its lots (staff view), adding, editing and withdrawing lots. */
export function SpecialPage() {
  const id = Number(useParams().id)
  const special = useSpecial(id)
  if (special.isPending) {
    return (
      <div className={styles.loading}>
        <Spin />
      </div>
    )
  }
  if (special.isError) {
    return (
      <Result
        status="404"
        title={staffErrorMessage(special.error)}
        extra={
          <Link to="/catalogue/specials">
            <Button>{T.backToList}</Button>
          </Link>
        }
      />
    )
  }
  return <SpecialView special={special.data} />
}

function SpecialView({ special }: { special: StaffSpecialDetail }) {
  const { message } = App.useApp()
  const withdraw = useWithdrawLot()
  const preview = special.status === 'preview'
  // Once its first lot has closed a special takes no more lots (the server's rule, acceptsLots).
  const closed = !special.acceptsLots

  const withdrawLot = async (lot: StaffLot) => {
    try {
      await withdraw.mutateAsync(lot.id)
      message.success(T.withdrawn)
    } catch (error) {
      message.error(staffErrorMessage(error))
    }
  }

  const columns: ProColumns<StaffLot>[] = [
    { title: T.lotNo, dataIndex: 'lotNo', width: 64, align: 'center' },
    {
      title: T.thumbnail,
      dataIndex: 'images',
      width: 68,
      render: (_, lot) =>
        lot.images[0] ? (
          <Image
            className={styles.thumb}
            width={48}
            height={48}
            src={photoThumb(lot.images[0])}
            preview={{ src: lot.images[0] }}
          />
        ) : (
          <span className={styles.noThumb} />
        ),
    },
    {
      title: T.title,
      dataIndex: 'title',
      render: (_, lot) => (
        <div className={styles.titleCell}>
          <Typography.Text className={styles.lotTitle} ellipsis={{ tooltip: lot.title }}>
            {lot.title}
          </Typography.Text>
          {(lotFacts(lot) !== '' || lot.exportBanned) && (
            <span className={styles.facts}>
              {lotFacts(lot)}
              {lot.exportBanned && (
                <Tag color="orange" className={styles.exportTag}>
                  {T.exportBannedTag}
                </Tag>
              )}
            </span>
          )}
        </div>
      ),
    },
    {
      title: `${T.startPrice} / ${T.reservePrice}`,
      dataIndex: 'startPrice',
      align: 'right',
      width: 128,
      render: (_, lot) => (
        <div className={styles.stack}>
          <span className={styles.money}>{yuan(lot.startPrice)}</span>
          <span className={styles.sub}>
            {lot.reservePrice === null
              ? T.noReserve
              : `${T.reserveShort} ${yuan(lot.reservePrice)}`}
          </span>
        </div>
      ),
    },
    {
      title: T.price,
      dataIndex: 'price',
      align: 'right',
      width: 112,
      render: (_, lot) => (
        <div className={styles.stack}>
          {lot.price === null ? (
            <span className={styles.muted}>{T.noBids}</span>
          ) : (
            <span className={styles.money}>{yuan(lot.price)}</span>
          )}
          <span className={styles.sub}>{T.bidTimes(lot.bidCount)}</span>
        </div>
      ),
    },
    {
      title: T.status,
      dataIndex: 'status',
      width: 72,
      render: (_, lot) => <Tag color={LOT_STATUS_COLOR[lot.status]}>{T.lotStatus[lot.status]}</Tag>,
    },
    {
      title: T.endsAt,
      dataIndex: 'endsAt',
      width: 100,
      render: (_, lot) => <span className={styles.money}>{chinaTime(lot.endsAt).slice(5)}</span>,
    },
    {
      title: T.actions,
      valueType: 'option',
      width: 100,
      render: (_, lot) => [
        lot.editable ? (
          <LotDrawer key="edit" specialId={special.id} lot={lot} trigger={<a>{T.edit}</a>} />
        ) : (
          <Tooltip key="edit" title={T.lockedLot}>
            <span className={styles.disabled}>{T.edit}</span>
          </Tooltip>
        ),
        preview ? (
          <Popconfirm
            key="withdraw"
            title={T.withdrawConfirm}
            onConfirm={() => inBackground(withdrawLot(lot))}
          >
            <a className={styles.danger}>{T.withdraw}</a>
          </Popconfirm>
        ) : (
          <Tooltip key="withdraw" title={T.onlyBeforeStart}>
            <span className={styles.disabled}>{T.withdraw}</span>
          </Tooltip>
        ),
      ],
    },
  ]

  return (
    <div className={styles.page}>
      <Card
        title={
          <Space>
            <Link to="/catalogue/specials" aria-label={T.backToList}>
              <ArrowLeftOutlined />
            </Link>
            <span>{special.title}</span>
            <Tag color={STATUS_COLOR[special.status]}>{T.specialStatus[special.status]}</Tag>
          </Space>
        }
        extra={
          <SpecialDrawer
            special={special}
            trigger={<Button icon={<EditOutlined />}>{T.editSpecial}</Button>}
          />
        }
      >
        <div className={styles.summary}>
          {special.cover ? (
            <Image
              className={styles.cover}
              width={192}
              height={108}
              src={photoThumb(special.cover)}
              preview={{ src: special.cover }}
            />
          ) : null}
          <ProDescriptions<StaffSpecialDetail>
            column={3}
            dataSource={special}
            columns={[
              {
                title: T.subtitle,
                dataIndex: 'subtitle',
                span: 3,
                render: (_, s) => s.subtitle || T.none,
              },
              { title: T.startsAt, dataIndex: 'startsAt', render: (_, s) => chinaTime(s.startsAt) },
              { title: T.endsAt, dataIndex: 'endsAt', render: (_, s) => chinaTime(s.endsAt) },
              {
                title: T.lastEndsAt,
                dataIndex: 'lastEndsAt',
                render: (_, s) => chinaTime(s.lastEndsAt),
              },
              {
                title: T.stagger,
                dataIndex: 'staggerSeconds',
                render: (_, s) => durationText(s.staggerSeconds),
              },
              {
                title: T.softCloseWindow,
                dataIndex: 'softCloseWindowSeconds',
                render: (_, s) =>
                  `${durationText(s.softCloseWindowSeconds)}（延时 ${durationText(s.softCloseExtendSeconds)}）`,
              },
              { title: T.lotCount, dataIndex: 'lotCount' },
              { title: T.bidCount, dataIndex: 'bidCount' },
              {
                title: T.shopPage,
                dataIndex: 'id',
                render: (_, s) => (
                  <a href={`/specialDetail?id=${s.id}`} target="_blank" rel="noreferrer">
                    {T.openInShop}
                  </a>
                ),
              },
            ]}
          />
        </div>
      </Card>
      <ProTable<StaffLot>
        className={styles.table}
        tableLayout="fixed"
        headerTitle={T.lotsTitle}
        rowKey="id"
        search={false}
        options={false}
        columns={columns}
        dataSource={special.lots}
        pagination={special.lots.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        locale={{ emptyText: closed ? T.noLotsClosed : T.noLots }}
        toolBarRender={() => [
          <Button key="template" icon={<DownloadOutlined />} href={LOT_IMPORT_TEMPLATE_URL}>
            {T.downloadTemplate}
          </Button>,
          ...(closed
            ? [
                <Tooltip key="import" title={T.specialClosed}>
                  <Button icon={<UploadOutlined />} disabled>
                    {T.importLots}
                  </Button>
                </Tooltip>,
                <Tooltip key="add" title={T.specialClosed}>
                  <Button type="primary" icon={<PlusOutlined />} disabled>
                    {T.addLot}
                  </Button>
                </Tooltip>,
              ]
            : [
                <Link key="import" to={`/catalogue/import?special=${special.id}`}>
                  <Button icon={<UploadOutlined />}>{T.importLots}</Button>
                </Link>,
                <LotDrawer
                  key="add"
                  specialId={special.id}
                  trigger={
                    <Button type="primary" icon={<PlusOutlined />}>
                      {T.addLot}
                    </Button>
                  }
                />,
              ]),
        ]}
      />
    </div>
  )
}
