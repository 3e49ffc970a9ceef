import {
  DrawerForm,
  ProForm,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components'
import { gradeName, NAMED_GRADE_CODES } from '@numisma/contracts/grades'
import { GRADING_SERVICES, type StaffLot } from '@numisma/contracts/staff-catalogue'
import type { PriceStep } from '@numisma/domain/increments'
import { App, type FormInstance } from 'antd'
import type { ReactElement } from 'react'
import { PhotoUpload } from '../components/photo-upload'
import { staffErrorMessage } from '../staff-api'
import { fenOf, offGrid, yuanOf } from './format'
import { useCategories, useCreateLot, usePriceSteps, useUpdateLot } from './queries'
import { CATALOGUE_TEXT as T } from './texts'

interface LotValues {
  title: string
  subtitle?: string
  description?: string
  images?: string[]
  categoryId?: number | null
  gradeCode?: number
  gradingService?: (typeof GRADING_SERVICES)[number] | null
  certNo?: string
  startPrice: number
  reservePrice?: number | null
  exportBanned?: boolean
}

const GRADE_OPTIONS = [
  { value: 0, label: `${T.none}（0）` },
  ...NAMED_GRADE_CODES.map((code) => ({ value: code, label: `${gradeName(code)}（${code}）` })),
]
const SERVICE_OPTIONS = GRADING_SERVICES.map((s) => ({ value: s, label: s }))

const initialOf = (lot: StaffLot | undefined): Partial<LotValues> =>
  lot
    ? {
        ...lot,
        gradingService: GRADING_SERVICES.find((s) => s === lot.gradingService) ?? null,
        certNo: lot.certNo ?? '',
        startPrice: yuanOf(lot.startPrice),
        reservePrice: lot.reservePrice === null ? null : yuanOf(lot.reservePrice),
      }
    : { images: [], gradeCode: 0, exportBanned: false }

/** An amount the grid refuses, as the message the form shows under the field. */
const gridRule = (steps: readonly PriceStep[]) => ({
  validator: (_: unknown, yuan: number | null | undefined) => {
    if (yuan === null || yuan === undefined) return Promise.resolve()
    const near = offGrid(fenOf(yuan), steps)
    return near ? Promise.reject(new Error(T.offGrid(near.below, near.above))) : Promise.resolve()
  },
})

/**
 * 添加拍品 / 编辑拍品 in a drawer: photos (first = cover), texts, grading, prices in yuan checked
 * on the increment table as typed, reserve, export flag.
 */
export function LotDrawer(props: { specialId: number; lot?: StaffLot; trigger: ReactElement }) {
  const { specialId, lot, trigger } = props
  const { message } = App.useApp()
  const categories = useCategories()
  const steps = usePriceSteps().data ?? []
  const create = useCreateLot()
  const update = useUpdateLot()

  const save = async (values: LotValues) => {
    const fields = {
      title: values.title,
      subtitle: values.subtitle ?? '',
      description: values.description ?? '',
      images: values.images ?? [],
      gradeCode: values.gradeCode ?? 0,
      startPrice: fenOf(values.startPrice),
      exportBanned: values.exportBanned ?? false,
    }
    const reservePrice =
      values.reservePrice === null || values.reservePrice === undefined
        ? null
        : fenOf(values.reservePrice)
    const certNo = values.certNo?.trim() ? values.certNo.trim() : null
    try {
      if (lot) {
        await update.mutateAsync({
          id: lot.id,
          input: {
            ...fields,
            reservePrice,
            categoryId: values.categoryId ?? null,
            gradingService: values.gradingService ?? null,
            certNo,
          },
        })
      } else {
        await create.mutateAsync({
          ...fields,
          specialId,
          reservePrice: reservePrice ?? undefined,
          categoryId: values.categoryId ?? undefined,
          gradingService: values.gradingService ?? undefined,
          certNo: certNo ?? undefined,
        })
      }
      message.success(T.saved)
      return true
    } catch (error) {
      message.error(staffErrorMessage(error))
      return false
    }
  }

  return (
    <DrawerForm<LotValues>
      title={lot ? `${T.editLot} · ${T.lotNo} ${lot.lotNo}` : T.addLot}
      width={640}
      trigger={trigger}
      drawerProps={{ destroyOnHidden: true }}
      initialValues={initialOf(lot)}
      onFinish={save}
    >
      <ProForm.Item name="images" label={T.photos}>
        <PhotoUpload />
      </ProForm.Item>
      <ProFormText name="title" label={T.title} rules={[{ required: true, max: 200 }]} />
      <ProFormText name="subtitle" label={T.subtitle} rules={[{ max: 200 }]} />
      <ProForm.Group>
        <ProFormDigit
          name="startPrice"
          label={`${T.startPrice}（${T.yuan}）`}
          min={0.01}
          width="sm"
          fieldProps={{ precision: 2 }}
          rules={[{ required: true }, gridRule(steps)]}
        />
        <ProFormDigit
          name="reservePrice"
          label={`${T.reservePrice}（${T.yuan}）`}
          min={0.01}
          width="sm"
          dependencies={['startPrice']}
          fieldProps={{ precision: 2, placeholder: T.noReserve }}
          rules={[
            gridRule(steps),
            (form: FormInstance<LotValues>) => ({
              validator: (_: unknown, yuan: number | null | undefined) => {
                const start = form.getFieldValue('startPrice') as number | undefined
                return yuan != null && start !== undefined && yuan < start
                  ? Promise.reject(new Error(T.reserveBelowStart))
                  : Promise.resolve()
              },
            }),
          ]}
        />
      </ProForm.Group>
      <ProForm.Group>
        <ProFormSelect
          name="categoryId"
          label={T.category}
          width="sm"
          allowClear
          showSearch
          options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
        <ProFormSelect
          name="gradeCode"
          label={T.grade}
          width="sm"
          showSearch
          options={GRADE_OPTIONS}
        />
      </ProForm.Group>
      <ProForm.Group>
        <ProFormSelect
          name="gradingService"
          label={T.gradingService}
          width="sm"
          allowClear
          options={SERVICE_OPTIONS}
        />
        <ProFormText name="certNo" label={T.certNo} width="sm" rules={[{ max: 40 }]} />
      </ProForm.Group>
      <ProFormSwitch name="exportBanned" label={T.exportBanned} />
      <ProFormTextArea name="description" label={T.description} fieldProps={{ rows: 5 }} />
    </DrawerForm>
  )
}
