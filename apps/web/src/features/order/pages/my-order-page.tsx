import { OrderList } from '../components/order-list'

/** /myOrder?tab=…: spec §2's "my orders", the same list as /order/list (the user centre links here). */
export function MyOrderPage() {
  return <OrderList />
}
