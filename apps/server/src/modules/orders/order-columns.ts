/**
 * An order with the lot or mall item it is for (title, pictures, lot id or product number): the
 * columns `toOrder` maps, for any read joining `lots` and `mall_items` onto `orders`.
 */
export const ORDER_ROW_COLUMNS = [
  'orders.id',
  'orders.user_id',
  'orders.kind',
  'orders.status',
  'orders.lot_id',
  'orders.quantity',
  'orders.amount',
  'orders.fee',
  'orders.discount',
  'orders.total',
  'orders.user_coupon_id',
  'orders.pay_method',
  'orders.created_at',
  'orders.due_at',
  'orders.paid_at',
  'orders.cancelled_at',
  'lots.title as lot_title',
  'lots.images as lot_images',
  'mall_items.product_no',
  'mall_items.title as mall_title',
  'mall_items.images as mall_images',
] as const
