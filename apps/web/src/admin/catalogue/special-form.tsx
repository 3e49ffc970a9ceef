import {
  DrawerForm,
  ProForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components'
import type { SpecialCreate } from '@numisma/contracts/staff'
import type { SpecialUpdate, StaffSpecial } from '@numisma/contracts/staff-catalogue'
import { Alert, App } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import type { ReactElement } from 'react'
import { PhotoUpload } from '../components/photo-upload'
import { StaffApiError } from '../staff-api'
import { pickedIso, pickerDate } from './format'
import { useCreateSpecial, useUpdateSpecial } from './queries'
import styles from './special-form.module.css'
import { CATALOGUE_TEXT as T } from './texts'

interface SpecialValues {
  title: string
  subtitle?: string
  description?: string
  cover?: string[]
  /** As picked (dayjs), or as ProForm's formatter hands it on (local wall-clock text). */
  period: [Dayjs | string, Dayjs | string]
  staggerSeconds: number
  softCloseWindowSeconds: number
  softCloseExtendSeconds: number
}

const initialOf = (special: StaffSpecial | undefined): Partial<SpecialValues> =>
  special
    ? {
        ...special,
        cover: special.cover ? [special.cover] : [],
        period: [dayjs(pickerDate(special.startsAt)), dayjs(pickerDate(special.endsAt))],
      }
    : {
        cover: [],
        staggerSeconds: 30,
        softCloseWindowSeconds: 300,
        softCloseExtendSeconds: 300,
      }

/**
 * 新建专场 / 编辑专场 in a drawer: texts, cover, the sale's times (China time) and its stagger and
 * soft-close rules. A started special's times are shown but locked, as the server refuses them.
 */
export function SpecialDrawer(props: {
  special?: StaffSpecial
  trigger: ReactElement
  /** After a save, with the special's id. */
  onSaved?: (id: number) => void
}) {
  const { special, trigger, onSaved } = props
  const { message } = App.useApp()
  const create = useCreateSpecial()
  const update = useUpdateSpecial()
  const started = special !== undefined && special.status !== 'preview'

  const save = async (values: SpecialValues) => {
    const texts = {
      title: values.title,
      subtitle: values.subtitle ?? '',
      description: values.description ?? '',
      cover: values.cover?.[0] ?? '',
    }
    try {
      const times = {
        startsAt: pickedIso(dayjs(values.period[0])),
        endsAt: pickedIso(dayjs(values.period[1])),
        staggerSeconds: values.staggerSeconds,
        softCloseWindowSeconds: values.softCloseWindowSeconds,
        softCloseExtendSeconds: values.softCloseExtendSeconds,
      }
      if (special) {
        const input: SpecialUpdate = started ? texts : { ...texts, ...times }
        await update.mutateAsync({ id: special.id, input })
        message.success(T.saved)
        onSaved?.(special.id)
      } else {
        const input: SpecialCreate = { ...texts, ...times }
        const { id } = await create.mutateAsync(input)
        message.success(T.created)
        onSaved?.(id)
      }
      return true
    } catch (error) {
      message.error(error instanceof StaffApiError ? error.message : String(error))
      return false
    }
  }

  return (
    <DrawerForm<SpecialValues>
      title={special ? `${T.editSpecial} · ${special.title}` : T.newSpecial}
      width={600}
      trigger={trigger}
      drawerProps={{ destroyOnHidden: true }}
      initialValues={initialOf(special)}
      onFinish={save}
    >
      {started && <Alert className={styles.locked} type="info" showIcon message={T.timesLocked} />}
      <ProFormText name="title" label={T.title} rules={[{ required: true, max: 100 }]} />
      <ProFormText name="subtitle" label={T.subtitle} rules={[{ max: 200 }]} />
      <ProForm.Item name="cover" label={T.cover}>
        <PhotoUpload max={1} hint={T.coverHint} />
      </ProForm.Item>
      <ProFormDateTimeRangePicker
        name="period"
        label={T.period}
        extra={T.periodHint}
        disabled={started}
        fieldProps={{ format: 'YYYY-MM-DD HH:mm', showTime: { format: 'HH:mm' } }}
        rules={[{ required: true }]}
      />
      <ProForm.Group>
        <ProFormDigit
          name="staggerSeconds"
          label={`${T.stagger}（${T.seconds}）`}
          min={0}
          max={3600}
          width="xs"
          disabled={started}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true }]}
        />
        <ProFormDigit
          name="softCloseWindowSeconds"
          label={`${T.softCloseWindow}（${T.seconds}）`}
          min={0}
          max={3600}
          width="xs"
          disabled={started}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true }]}
        />
        <ProFormDigit
          name="softCloseExtendSeconds"
          label={`${T.softCloseExtend}（${T.seconds}）`}
          min={0}
          max={3600}
          width="xs"
          disabled={started}
          fieldProps={{ precision: 0 }}
          rules={[{ required: true }]}
        />
      </ProForm.Group>
      <div className={styles.hint}>{T.softCloseHint}</div>
      <ProFormTextArea name="description" label={T.description} fieldProps={{ rows: 5 }} />
    </DrawerForm>
  )
}
