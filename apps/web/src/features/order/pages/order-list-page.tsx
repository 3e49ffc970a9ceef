import { OrderList } from '../components/order-list'

/** /order/list?tab=all|pay|ship|receive|done: the order list (spec §2). */
export function OrderListPage() {
  return <OrderList />
}
