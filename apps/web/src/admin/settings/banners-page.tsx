import { isShopLink } from '@numisma/contracts/api'
import { PlusOutlined } from '@ant-design/icons'
import {
  ModalForm,
  ProForm,
  ProFormDateTimePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import type { BannerInput, StaffBanner } from '@numisma/contracts/staff-settings'
import { App, Button, Image, Popconfirm, Tag, Typography } from 'antd'
import type { Dayjs } from 'dayjs'
import type { ReactNode } from 'react'
import { inBackground } from '../../lib/background'
import { photoThumb } from '../components/photo-api'
import { PhotoUpload } from '../components/photo-upload'
import { staffErrorMessage } from '../staff-api'
import styles from './banners-page.module.css'
import { formatChinaTime } from './format'
import { pickedIso, pickerValue } from './pickers'
import { useBanners, useCreateBanner, useDeleteBanner, useUpdateBanner } from './queries'
import { SETTINGS_TEXT as T } from './texts'

interface BannerValues {
  position: 0 | 1
  title: string
  titleEn?: string
  image: string[]
  link: string
  sort: number
  activeFrom: Dayjs | string
  activeUntil?: Dayjs | string | null
}

const toInput = (values: BannerValues): BannerInput => ({
  position: values.position,
  title: values.title,
  titleEn: values.titleEn ?? '',
  image: values.image[0] ?? '',
  link: values.link,
  sort: values.sort,
  activeFrom: pickedIso(values.activeFrom),
  activeUntil: values.activeUntil ? pickedIso(values.activeUntil) : null,
})

const positionOptions = [0, 1].map((value) => ({ value, label: T.positions[value] }))

function BannerForm(props: {
  title: string
  trigger: ReactNode
  banner?: StaffBanner
  onFinish: (input: BannerInput) => Promise<boolean>
}) {
  const { banner } = props
  return (
    <ModalForm<BannerValues>
      title={props.title}
      width={560}
      trigger={props.trigger}
      modalProps={{ destroyOnHidden: true }}
      initialValues={
        banner
          ? {
              ...banner,
              position: banner.position === 1 ? 1 : 0,
              image: [banner.image],
              activeFrom: pickerValue(banner.activeFrom),
              activeUntil: banner.activeUntil ? pickerValue(banner.activeUntil) : null,
            }
          : { position: 0, sort: 0, image: [] }
      }
      onFinish={(values) => props.onFinish(toInput(values))}
    >
      <ProForm.Item
        name="image"
        label={T.image}
        rules={[{ required: true, type: 'array', min: 1, message: T.image }]}
      >
        <PhotoUpload max={1} hint={T.imageHint} />
      </ProForm.Item>
      <ProForm.Group>
        <ProFormText
          name="title"
          label={T.title}
          width="md"
          rules={[{ required: true, max: 60 }]}
        />
        <ProFormText name="titleEn" label={T.titleEn} width="md" rules={[{ max: 120 }]} />
      </ProForm.Group>
      <ProFormText
        name="link"
        label={T.link}
        extra={T.linkHelp}
        placeholder="/special/1"
        rules={[
          { required: true, message: T.linkInvalid },
          {
            validator: (_, value: string | undefined) =>
              !value || isShopLink(value.trim())
                ? Promise.resolve()
                : Promise.reject(new Error(T.linkInvalid)),
          },
        ]}
      />
      <ProForm.Group>
        <ProFormSelect
          name="position"
          label={T.position}
          options={positionOptions}
          width="sm"
          allowClear={false}
        />
        <ProFormDigit
          name="sort"
          label={T.sort}
          min={0}
          max={10_000}
          fieldProps={{ precision: 0 }}
          width="xs"
        />
      </ProForm.Group>
      <ProForm.Group>
        <ProFormDateTimePicker
          name="activeFrom"
          label={T.activeFrom}
          width="sm"
          fieldProps={{ format: 'YYYY-MM-DD HH:mm' }}
          rules={[{ required: true }]}
        />
        <ProFormDateTimePicker
          name="activeUntil"
          label={T.activeUntil}
          width="sm"
          fieldProps={{ format: 'YYYY-MM-DD HH:mm', placeholder: T.forever }}
        />
      </ProForm.Group>
    </ModalForm>
  )
}

/** 首页横幅: the banners of the home and category pages, with their windows. */
export function BannersPage() {
  const { message } = App.useApp()
  const banners = useBanners()
  const create = useCreateBanner()
  const update = useUpdateBanner()
  const remove = useDeleteBanner()

  const attempt = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work()
      message.success(done)
      return true
    } catch (error) {
      message.error(staffErrorMessage(error))
      return false
    }
  }

  const columns: ProColumns<StaffBanner>[] = [
    {
      title: T.image,
      dataIndex: 'image',
      width: 120,
      render: (_, b) => (
        <Image className={styles.thumb} width={100} height={43} src={photoThumb(b.image)} />
      ),
    },
    {
      // The title takes the width left; a long one wraps to two lines (the tooltip has the rest).
      title: T.title,
      dataIndex: 'title',
      render: (_, b) => (
        <Typography.Paragraph className={styles.title} ellipsis={{ rows: 2, tooltip: b.title }}>
          {b.title}
        </Typography.Paragraph>
      ),
    },
    {
      title: T.position,
      dataIndex: 'position',
      width: 64,
      render: (_, b) => T.positions[b.position],
    },
    {
      title: T.link,
      dataIndex: 'link',
      width: 180,
      render: (_, b) => (
        <Typography.Text className={styles.link} ellipsis={{ tooltip: b.link }} code>
          {b.link}
        </Typography.Text>
      ),
    },
    { title: T.sort, dataIndex: 'sort', align: 'right', width: 56 },
    {
      title: T.shownFor,
      width: 132,
      render: (_, b) => (
        <div className={styles.window}>
          <div>{formatChinaTime(b.activeFrom)}</div>
          <div>{b.activeUntil ? formatChinaTime(b.activeUntil) : T.forever}</div>
        </div>
      ),
    },
    {
      title: T.state,
      dataIndex: 'live',
      width: 80,
      render: (_, b) => (b.live ? <Tag color="green">{T.live}</Tag> : <Tag>{T.notLive}</Tag>),
    },
    {
      title: T.actions,
      valueType: 'option',
      width: 96,
      render: (_, b) => [
        <BannerForm
          key="edit"
          title={T.editBanner}
          trigger={<a>{T.edit}</a>}
          banner={b}
          onFinish={(input) => attempt(() => update.mutateAsync({ id: b.id, input }), T.saved)}
        />,
        <Popconfirm
          key="delete"
          title={T.deleteConfirm}
          onConfirm={() => inBackground(attempt(() => remove.mutateAsync(b.id), T.deleted))}
        >
          <a>{T.delete}</a>
        </Popconfirm>,
      ],
    },
  ]

  return (
    <ProTable<StaffBanner>
      headerTitle={T.banners}
      rowKey="id"
      search={false}
      options={false}
      size="middle"
      pagination={false}
      loading={banners.isPending}
      dataSource={banners.data}
      columns={columns}
      toolBarRender={() => [
        <BannerForm
          key="new"
          title={T.newBanner}
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newBanner}
            </Button>
          }
          onFinish={(input) => attempt(() => create.mutateAsync(input), T.created)}
        />,
      ]}
    />
  )
}
