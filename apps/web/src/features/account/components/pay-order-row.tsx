import type { Order } from '@numisma/contracts/orders'
import { useTranslation } from '../../../lib/i18n'
import { OrderTickRow } from '../../../components/order-tick-row'

/**
 * A pending order on the payment screen: the shared tick row with what the total holds — a mall
 * order's units (it may hold several, rarely several items), or a won lot's handling fee.
 */
export function PayOrderRow({
  order,
  checked,
  onToggle,
}: {
  order: Order
  checked: boolean
  onToggle: (checked: boolean) => void
}) {
  const { t } = useTranslation()
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0)
  return (
    <OrderTickRow
      order={order}
      checked={checked}
      onToggle={onToggle}
      testId="pay-order"
      note={
        order.kind === 'mall'
          ? t('pay.units', { count: units })
          : order.fee > 0
            ? t('pay.withFee')
            : null
      }
    />
  )
}
