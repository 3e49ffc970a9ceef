/**
 * Query keys of delivery: the apply-to-ship info (orders in storage, the quote, bookable days),
 * the caller's shipments (waiting to receive, records, one shipment) and counter cash bookings.
 * Applying, confirming receipt, booking and cancelling invalidate these roots and the order lists.
 */
export const DELIVERY_KEY = ['delivery'] as const
export const DELIVERY_INFO_KEY = [...DELIVERY_KEY, 'info'] as const
export const SHIPMENTS_KEY = [...DELIVERY_KEY, 'shipments'] as const
export const BOOKINGS_KEY = [...DELIVERY_KEY, 'bookings'] as const
