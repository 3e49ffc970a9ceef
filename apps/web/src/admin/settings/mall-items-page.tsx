import { PlusOutlined } from '@ant-design/icons'
import {
  DrawerForm,
  ModalForm,
  ProForm,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProTable,
  type ActionType,
  type ProColumns,
} from '@ant-design/pro-components'
import { formatFen } from '@numisma/contracts/money'
import type { MallItemUpdate, StaffMallItem } from '@numisma/contracts/staff-settings'
import { App, Button, Image, Popconfirm, Switch, Typography } from 'antd'
import { useRef } from 'react'
import { inBackground } from '../../lib/background'
import { photoThumb } from '../components/photo-api'
import { PhotoUpload } from '../components/photo-upload'
import { staffErrorMessage } from '../staff-api'
import { getMallItems } from './api'
import { categoryTree, fenOf, flatten, yuanOf } from './format'
import styles from './mall-items-page.module.css'
import {
  useAdjustStock,
  useCreateMallItem,
  useMallCategories,
  useSetOnSale,
  useUpdateMallItem,
} from './queries'
import { SETTINGS_TEXT as T } from './texts'

/** The form's values: the price in yuan, optional fields possibly cleared (undefined). */
type EditValues = Partial<Omit<MallItemUpdate, 'title' | 'price'>> & {
  title: string
  price: number
}
type NewValues = EditValues & { stock: number }

const GRADING_OPTIONS = ['PCGS', 'NGC', 'PMG', 'GBCA'].map((s) => ({ label: s, value: s }))

/** What the server takes from the create or edit form: fen, and cleared fields as their empties. */
function describedOf(values: EditValues): MallItemUpdate {
  return {
    title: values.title,
    price: fenOf(values.price),
    images: values.images ?? [],
    categoryId: values.categoryId ?? null,
    limitPerUser: values.limitPerUser ?? null,
    gradingService: values.gradingService ?? null,
    certNo: values.certNo || null,
    subtitle: values.subtitle ?? '',
    description: values.description ?? '',
    year: values.year ?? '',
    denomination: values.denomination ?? '',
    material: values.material ?? '',
    gradeCode: values.gradeCode ?? 0,
    exportBanned: values.exportBanned ?? false,
  }
}

/**
 * The fields 新建商品 and 编辑 share (the new item adds its first stock after the price), so
 * both forms offer the same photos, description, category, limit and grade.
 */
function MallItemFields({
  categoryOptions,
  withStock,
}: {
  categoryOptions: { label: string; value: number }[]
  withStock: boolean
}) {
  return (
    <>
      <ProFormText name="title" label={T.title} rules={[{ required: true, max: 200 }]} />
      <ProFormText name="subtitle" label={T.subtitle} rules={[{ max: 200 }]} />
      <ProForm.Item name="images" label={T.photos}>
        <PhotoUpload />
      </ProForm.Item>
      <ProForm.Group>
        <ProFormDigit
          name="price"
          label={`${T.price}（${T.yuan}）`}
          min={0.01}
          fieldProps={{ precision: 2 }}
          width="sm"
          rules={[{ required: true }]}
        />
        {withStock && (
          <ProFormDigit
            name="stock"
            label={T.initialStock}
            min={0}
            max={1_000_000}
            fieldProps={{ precision: 0 }}
            width="xs"
            rules={[{ required: true }]}
          />
        )}
        <ProFormDigit
          name="limitPerUser"
          label={T.limitPerUser}
          min={1}
          max={10_000}
          fieldProps={{ precision: 0, placeholder: T.noLimit }}
          width={withStock ? 'xs' : 'sm'}
        />
      </ProForm.Group>
      <ProFormSelect
        name="categoryId"
        label={T.category}
        options={categoryOptions}
        allowClear
        showSearch
      />
      <ProForm.Group>
        <ProFormText name="year" label={T.year} width="sm" />
        <ProFormText name="denomination" label={T.denomination} width="sm" />
        <ProFormText name="material" label={T.material} width="sm" />
      </ProForm.Group>
      <ProForm.Group>
        <ProFormSelect
          name="gradingService"
          label={T.gradingService}
          options={GRADING_OPTIONS}
          allowClear
          width="sm"
        />
        <ProFormDigit
          name="gradeCode"
          label={T.grade}
          min={0}
          max={99}
          fieldProps={{ precision: 0 }}
          width="xs"
        />
        <ProFormText name="certNo" label={T.certNo} width="sm" />
      </ProForm.Group>
      <ProFormTextArea name="description" label={T.description} fieldProps={{ rows: 5 }} />
      <ProFormSwitch name="exportBanned" label={T.exportBanned} />
    </>
  )
}

/** 商城商品: the mall's items with their shelf, edits, stock adjustments and sale switch. */
export function MallItemsPage() {
  const { message } = App.useApp()
  const table = useRef<ActionType>(null)
  const categories = useMallCategories()
  const create = useCreateMallItem()
  const update = useUpdateMallItem()
  const adjust = useAdjustStock()
  const sale = useSetOnSale()
  const categoryOptions = flatten(categoryTree(categories.data ?? [])).map((c) => ({
    label: c.path,
    value: c.id,
  }))

  const attempt = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work()
      message.success(done)
      await table.current?.reload()
      return true
    } catch (error) {
      message.error(staffErrorMessage(error))
      return false
    }
  }

  const columns: ProColumns<StaffMallItem>[] = [
    {
      title: T.keyword,
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: T.keywordPlaceholder },
    },
    {
      title: T.saleState,
      dataIndex: 'onSale',
      hideInTable: true,
      valueType: 'select',
      valueEnum: { true: { text: T.onSale }, false: { text: T.offSale } },
    },
    {
      title: T.thumbnail,
      dataIndex: 'images',
      search: false,
      width: 72,
      render: (_, item) =>
        item.images[0] ? (
          <Image className={styles.thumb} width={48} height={48} src={photoThumb(item.images[0])} />
        ) : (
          <span className={styles.noThumb} />
        ),
    },
    {
      title: T.item,
      dataIndex: 'title',
      search: false,
      render: (_, item) => (
        <div className={styles.title}>
          <Typography.Text ellipsis={{ tooltip: item.title }}>{item.title}</Typography.Text>
          <div className={styles.muted}>
            {T.productNo} {item.productNo}
          </div>
        </div>
      ),
    },
    {
      title: T.category,
      dataIndex: 'categoryName',
      search: false,
      width: 96,
      ellipsis: true,
      render: (_, item) => item.categoryName ?? <span className={styles.muted}>{T.none}</span>,
    },
    {
      title: T.price,
      dataIndex: 'price',
      search: false,
      align: 'right',
      width: 104,
      render: (_, item) => `¥${formatFen(item.price)}`,
    },
    {
      title: T.stock,
      dataIndex: 'stock',
      search: false,
      align: 'right',
      width: 64,
      render: (_, item) => <span className={styles.units}>{item.stock}</span>,
    },
    { title: T.reserved, dataIndex: 'reserved', search: false, align: 'right', width: 72 },
    { title: T.sold, dataIndex: 'sold', search: false, align: 'right', width: 64 },
    {
      title: T.limitShort,
      dataIndex: 'limitPerUser',
      search: false,
      align: 'right',
      width: 64,
      render: (_, item) => item.limitPerUser ?? <span className={styles.muted}>{T.noLimit}</span>,
    },
    {
      title: T.saleState,
      dataIndex: 'onSale',
      search: false,
      width: 88,
      render: (_, item) => (
        <Popconfirm
          title={T.offSaleConfirm}
          disabled={!item.onSale}
          onConfirm={() =>
            inBackground(attempt(() => sale.mutateAsync({ id: item.id, onSale: false }), T.saved))
          }
        >
          <Switch
            checked={item.onSale}
            checkedChildren={T.onSale}
            unCheckedChildren={T.offSale}
            aria-label={item.onSale ? T.takeOffSale : T.putOnSale}
            onChange={(on) => {
              if (on)
                inBackground(
                  attempt(() => sale.mutateAsync({ id: item.id, onSale: true }), T.saved),
                )
            }}
          />
        </Popconfirm>
      ),
    },
    {
      title: T.actions,
      valueType: 'option',
      width: 132,
      render: (_, item) => [
        <DrawerForm<EditValues>
          key="edit"
          title={`${T.editMallItem} · ${item.productNo}`}
          width={560}
          trigger={<a>{T.edit}</a>}
          drawerProps={{ destroyOnHidden: true }}
          initialValues={{ ...item, price: yuanOf(item.price) }}
          onFinish={(values) =>
            attempt(() => update.mutateAsync({ id: item.id, input: describedOf(values) }), T.saved)
          }
        >
          <MallItemFields categoryOptions={categoryOptions} withStock={false} />
        </DrawerForm>,
        <ModalForm<{ delta: number; memo?: string }>
          key="stock"
          title={`${T.adjustStock} · ${item.title}`}
          width={420}
          trigger={<a>{T.adjustStock}</a>}
          modalProps={{ destroyOnHidden: true }}
          onFinish={(values) =>
            attempt(
              () =>
                adjust.mutateAsync({
                  id: item.id,
                  input: { delta: values.delta, memo: values.memo ?? '' },
                }),
              T.stockAdjusted,
            )
          }
        >
          <Typography.Paragraph type="secondary">
            {T.stock} {item.stock} · {T.reserved} {item.reserved} · {T.sold} {item.sold}
          </Typography.Paragraph>
          <ProFormDigit
            name="delta"
            label={T.delta}
            extra={T.deltaHelp}
            min={-1_000_000}
            max={1_000_000}
            fieldProps={{ precision: 0 }}
            rules={[
              { required: true },
              {
                validator: (_: unknown, value: number | undefined) =>
                  value === 0 ? Promise.reject(new Error(T.deltaHelp)) : Promise.resolve(),
              },
            ]}
          />
          <ProFormText name="memo" label={T.memo} rules={[{ max: 200 }]} />
        </ModalForm>,
      ],
    },
  ]

  return (
    <ProTable<StaffMallItem>
      headerTitle={T.mallItems}
      rowKey="id"
      actionRef={table}
      columns={columns}
      options={false}
      size="middle"
      search={{ labelWidth: 'auto' }}
      pagination={{ defaultPageSize: 20, showSizeChanger: false }}
      request={async (params: {
        current?: number
        pageSize?: number
        keyword?: unknown
        onSale?: unknown
      }) => {
        const { keyword, onSale } = params
        const page = await getMallItems({
          keyword: typeof keyword === 'string' ? keyword : undefined,
          onSale: onSale === 'true' || onSale === 'false' ? onSale : undefined,
          page: params.current ?? 1,
          pageSize: params.pageSize ?? 20,
        })
        return { data: page.items, total: page.total, success: true }
      }}
      toolBarRender={() => [
        <DrawerForm<NewValues>
          key="new"
          title={T.newMallItem}
          width={560}
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newMallItem}
            </Button>
          }
          drawerProps={{ destroyOnHidden: true }}
          initialValues={{ gradeCode: 0, exportBanned: false }}
          onFinish={(values) =>
            attempt(
              () => create.mutateAsync({ ...describedOf(values), stock: values.stock }),
              T.created,
            )
          }
        >
          <MallItemFields categoryOptions={categoryOptions} withStock />
        </DrawerForm>,
      ]}
    />
  )
}
