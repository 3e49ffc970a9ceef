import { PlusOutlined } from '@ant-design/icons'
import {
  ModalForm,
  ProForm,
  ProFormDateTimePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import type { CouponCreate } from '@numisma/contracts/mall'
import type { CouponState, StaffCoupon } from '@numisma/contracts/staff-settings'
import { App, Button, Popconfirm, Tag, Typography } from 'antd'
import type { Dayjs } from 'dayjs'
import { inBackground } from '../../lib/background'
import { staffErrorMessage } from '../staff-api'
import styles from './coupons-page.module.css'
import { categoryTree, couponTerms, fenOf, flatten, formatChinaTime } from './format'
import { pickedIso } from './pickers'
import { useCoupons, useCreateCoupon, useMallCategories, useStopCoupon } from './queries'
import { SETTINGS_TEXT as T } from './texts'

const STATE_COLOURS: Record<CouponState, string> = {
  scheduled: 'blue',
  issuing: 'green',
  stopped: 'orange',
  ended: 'default',
}

interface CouponValues {
  title: string
  kind: 'amount' | 'percent'
  threshold?: number
  amount?: number
  percent?: number
  cap?: number
  total: number
  perUser: number
  startsAt: Dayjs | string
  endsAt: Dayjs | string
  productNos?: string[]
  categoryIds?: number[]
}

const toInput = (v: CouponValues): CouponCreate => ({
  title: v.title,
  kind: v.kind,
  threshold: fenOf(v.threshold ?? 0),
  ...(v.kind === 'amount'
    ? { amount: fenOf(v.amount ?? 0) }
    : { percent: v.percent ?? 0, ...(v.cap ? { cap: fenOf(v.cap) } : {}) }),
  total: v.total,
  perUser: v.perUser,
  startsAt: pickedIso(v.startsAt),
  endsAt: pickedIso(v.endsAt),
  productNos: (v.productNos ?? []).map((no) => no.trim().toUpperCase()).filter(Boolean),
  categoryIds: v.categoryIds ?? [],
})

/** 优惠券: coupons with what was received and used; new ones; stopping an issue. */
export function CouponsPage() {
  const { message } = App.useApp()
  const coupons = useCoupons()
  const categories = useMallCategories()
  const create = useCreateCoupon()
  const stop = useStopCoupon()
  const categoryOptions = flatten(categoryTree(categories.data ?? [])).map((c) => ({
    label: c.path,
    value: c.id,
  }))
  const categoryName = new Map(categoryOptions.map((o) => [o.value, o.label]))

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

  const columns: ProColumns<StaffCoupon>[] = [
    {
      // The title takes the width left; a long one wraps to two lines (the tooltip has the rest).
      title: T.title,
      dataIndex: 'title',
      render: (_, c) => (
        <Typography.Paragraph className={styles.title} ellipsis={{ rows: 2, tooltip: c.title }}>
          {c.title}
        </Typography.Paragraph>
      ),
    },
    { title: T.terms, width: 150, render: (_, c) => couponTerms(c) },
    {
      title: T.scope,
      width: 110,
      ellipsis: true,
      render: (_, c) =>
        c.productNos.length === 0 && c.categoryIds.length === 0 ? (
          <span className={styles.muted}>{T.scopeAll}</span>
        ) : (
          [...c.productNos, ...c.categoryIds.map((id) => categoryName.get(id) ?? `#${id}`)].join(
            '、',
          )
        ),
    },
    {
      title: T.counts,
      width: 136,
      render: (_, c) => (
        <span className={styles.count} title={`${T.locked} ${c.locked}`}>
          {c.total} / {c.received} / {c.used}
        </span>
      ),
    },
    { title: T.perUserShort, dataIndex: 'perUser', align: 'right', width: 56 },
    {
      title: T.validity,
      width: 132,
      render: (_, c) => (
        <div className={styles.validity}>
          <div>{formatChinaTime(c.startsAt)}</div>
          <div>{formatChinaTime(c.endsAt)}</div>
        </div>
      ),
    },
    {
      title: T.state,
      dataIndex: 'state',
      width: 76,
      render: (_, c) => <Tag color={STATE_COLOURS[c.state]}>{T.states[c.state]}</Tag>,
    },
    {
      title: T.actions,
      valueType: 'option',
      width: 84,
      render: (_, c) =>
        c.state === 'issuing' || c.state === 'scheduled'
          ? [
              <Popconfirm
                key="stop"
                title={T.stopConfirm}
                onConfirm={() => inBackground(attempt(() => stop.mutateAsync(c.id), T.stopped))}
              >
                <a>{T.stop}</a>
              </Popconfirm>,
            ]
          : [],
    },
  ]

  return (
    <ProTable<StaffCoupon>
      headerTitle={T.coupons}
      rowKey="id"
      search={false}
      options={false}
      size="middle"
      pagination={{ defaultPageSize: 20, showSizeChanger: false }}
      loading={coupons.isPending}
      dataSource={coupons.data}
      columns={columns}
      toolBarRender={() => [
        <ModalForm<CouponValues>
          key="new"
          title={T.newCoupon}
          width={600}
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              {T.newCoupon}
            </Button>
          }
          modalProps={{ destroyOnHidden: true }}
          initialValues={{ kind: 'amount', threshold: 0, perUser: 1 }}
          onFinish={(values) => attempt(() => create.mutateAsync(toInput(values)), T.created)}
        >
          <ProFormText name="title" label={T.title} rules={[{ required: true, max: 60 }]} />
          <ProFormRadio.Group
            name="kind"
            label={T.couponKind}
            options={[
              { label: T.kinds.amount, value: 'amount' },
              { label: T.kinds.percent, value: 'percent' },
            ]}
          />
          <ProForm.Group>
            <ProFormDigit
              name="threshold"
              label={T.threshold}
              extra={T.thresholdNone}
              min={0}
              fieldProps={{ precision: 2 }}
              width="sm"
            />
            <ProFormDependency name={['kind']}>
              {({ kind }: { kind?: string }) =>
                kind === 'percent' ? (
                  <ProForm.Group>
                    <ProFormDigit
                      name="percent"
                      label={T.percent}
                      extra={T.percentHelp}
                      min={1}
                      max={99}
                      fieldProps={{ precision: 0 }}
                      width="xs"
                      rules={[{ required: true }]}
                    />
                    <ProFormDigit
                      name="cap"
                      label={T.cap}
                      min={0.01}
                      fieldProps={{ precision: 2 }}
                      width="xs"
                    />
                  </ProForm.Group>
                ) : (
                  <ProFormDigit
                    name="amount"
                    label={T.amount}
                    min={0.01}
                    fieldProps={{ precision: 2 }}
                    width="sm"
                    rules={[{ required: true }]}
                  />
                )
              }
            </ProFormDependency>
          </ProForm.Group>
          <ProForm.Group>
            <ProFormDigit
              name="total"
              label={T.total}
              min={1}
              max={10_000_000}
              fieldProps={{ precision: 0 }}
              width="sm"
              rules={[{ required: true }]}
            />
            <ProFormDigit
              name="perUser"
              label={T.perUser}
              min={1}
              max={100}
              fieldProps={{ precision: 0 }}
              width="sm"
              rules={[{ required: true }]}
            />
          </ProForm.Group>
          <ProForm.Group>
            <ProFormDateTimePicker
              name="startsAt"
              label={T.startsAt}
              width="sm"
              fieldProps={{ format: 'YYYY-MM-DD HH:mm' }}
              rules={[{ required: true }]}
            />
            <ProFormDateTimePicker
              name="endsAt"
              label={T.endsAt}
              width="sm"
              fieldProps={{ format: 'YYYY-MM-DD HH:mm' }}
              rules={[{ required: true }]}
            />
          </ProForm.Group>
          <ProFormSelect
            name="productNos"
            label={T.productNos}
            extra={T.productNosHelp}
            mode="tags"
            fieldProps={{ open: false, tokenSeparators: [',', ' ', '，'] }}
          />
          <ProFormSelect
            name="categoryIds"
            label={T.categoryIds}
            mode="multiple"
            options={categoryOptions}
          />
        </ModalForm>,
      ]}
    />
  )
}
