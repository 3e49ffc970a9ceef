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
import { staffErrorMessage } from '../staff-api'
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

/** Why a picked period is refused before it is sent (the server refuses it too, SPECIAL_TIMES_PAST). */
const PAST_END = '结束时间须晚于现在，请重新选择'
const PAST_START = '未开始的专场不能把开始时间改到过去，请选择现在之后的时间'

/** A picked time as the instant it names (China time), as the form sends it. */
const pickedMs = (picked: Dayjs | string): number => Date.parse(pickedIso(dayjs(picked)))

/** The picker shows minutes: a time still on the special's own minute is the special's own. */
const sameMinute = (picked: Dayjs | string, iso: string): boolean =>
  pickedIso(dayjs(picked)) === pickedIso(dayjs(pickerDate(iso)))

/**
 * The period a special may take: it ends later than now, and an edit does not move its start into
 * the past (a new special may start a moment ago; it opens at once). Null when it may.
 */
function periodRefusal(
  period: [Dayjs | string, Dayjs | string],
  special: StaffSpecial | undefined,
  now: number,
): string | null {
  const [start, end] = period
  const endMoved = special === undefined || !sameMinute(end, special.endsAt)
  if (endMoved && pickedMs(end) <= now) return PAST_END
  const startMoved = special !== undefined && !sameMinute(start, special.startsAt)
  if (startMoved && pickedMs(start) < now) return PAST_START
  return null
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
      const [start, end] = values.period
      // A time left on its own minute keeps the special's exact instant (seconds and all).
      const times = {
        startsAt:
          special && sameMinute(start, special.startsAt)
            ? special.startsAt
            : pickedIso(dayjs(start)),
        endsAt: special && sameMinute(end, special.endsAt) ? special.endsAt : pickedIso(dayjs(end)),
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
      message.error(staffErrorMessage(error))
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
        rules={[
          { required: true },
          {
            validator: (_, period?: [Dayjs | string, Dayjs | string] | null) => {
              if (started || !period?.[0] || !period[1]) return Promise.resolve()
              const refusal = periodRefusal(period, special, Date.now())
              return refusal ? Promise.reject(new Error(refusal)) : Promise.resolve()
            },
          },
        ]}
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
