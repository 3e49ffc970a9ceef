import { RedoOutlined } from '@ant-design/icons'
import { ModalForm, ProFormDigit, ProFormSelect } from '@ant-design/pro-components'
import { yuanToFen } from '@numisma/contracts/money'
import { App, Button, Tooltip } from 'antd'
import { useState } from 'react'
import { staffErrorMessage } from '../staff-api'
import { useRelist, useSalesSpecials } from './queries'
import { SALE_STATE_TEXT, SALES_TEXT as T } from './texts'

interface RelistValues {
  specialId: number
  startPrice: number
  reservePrice?: number | null
}

/**
 * 重新上拍 for one lot: a dialog choosing a special that has not closed, with the start price
 * (the old one by default) and an optional reserve, entered in yuan. Disabled, with the role it
 * needs, for a staff member who may not relist.
 */
export function RelistButton({
  lot,
  allowed,
}: {
  lot: { id: number; title: string; startPrice: number; reservePrice: number | null }
  allowed: boolean
}) {
  const { message } = App.useApp()
  const specials = useSalesSpecials()
  const relist = useRelist()
  const [openedAt] = useState(() => Date.now())
  if (!allowed) {
    return (
      <Tooltip title={T.needsRole('编目')}>
        <Button size="small" icon={<RedoOutlined />} disabled>
          {T.relist}
        </Button>
      </Tooltip>
    )
  }
  const open = (specials.data ?? []).filter(
    (s) => s.state !== 'closed' && Date.parse(s.endsAt) > openedAt,
  )
  return (
    <ModalForm<RelistValues>
      title={T.relistTitle(lot.title)}
      width={520}
      modalProps={{ destroyOnClose: true, okText: T.relist, cancelText: T.cancel }}
      trigger={
        <Button size="small" type="primary" ghost icon={<RedoOutlined />} data-testid="relist">
          {T.relist}
        </Button>
      }
      initialValues={{
        startPrice: lot.startPrice / 100,
        reservePrice: lot.reservePrice === null ? undefined : lot.reservePrice / 100,
        specialId: open[0]?.id,
      }}
      onFinish={async (values) => {
        try {
          const done = await relist.mutateAsync({
            lotId: lot.id,
            input: {
              specialId: values.specialId,
              startPrice: yuanToFen(values.startPrice),
              reservePrice:
                values.reservePrice === undefined || values.reservePrice === null
                  ? null
                  : yuanToFen(values.reservePrice),
            },
          })
          message.success(T.relistDone(done.lotNo))
          return true
        } catch (error) {
          message.error(staffErrorMessage(error, T.failed))
          return false
        }
      }}
    >
      <ProFormSelect
        name="specialId"
        label={T.relistSpecial}
        extra={T.relistSpecialHint}
        rules={[{ required: true, message: T.noOpenSpecials }]}
        fieldProps={{
          notFoundContent: T.noOpenSpecials,
          showSearch: true,
          optionFilterProp: 'label',
        }}
        options={open.map((s) => ({
          value: s.id,
          label: `【${SALE_STATE_TEXT[s.state]}】${s.title}`,
        }))}
      />
      <ProFormDigit
        name="startPrice"
        label={T.relistStart}
        extra={T.relistStartHint}
        min={0.01}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="reservePrice"
        label={T.relistReserve}
        extra={T.relistReserveHint}
        min={0.01}
        fieldProps={{ precision: 2 }}
      />
    </ModalForm>
  )
}
