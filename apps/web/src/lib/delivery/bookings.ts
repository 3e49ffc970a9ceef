import {
  infiniteQueryOptions,
  mutationOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  BookingAppliedSchema,
  BookingSchema,
  BookingsPageSchema,
  type Booking,
  type BookingApplied,
  type BookingApply,
  type BookingsPage,
} from '@numisma/contracts/delivery'
import { neverSent, request, requestPage } from '../api-client'
import { nextPageParam } from '../paging'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { BOOKINGS_KEY, DELIVERY_INFO_KEY } from './query-keys'

export const BOOKINGS_PAGE_SIZE = 20

/**
 * POST /user/booking/bookingApply: books a visit to pay unpaid orders in cash at the counter and
 * take them (a day and slot with places left). The key makes a retried tap book once. Failures
 * (SLOT_FULL, ORDER_NOT_BOOKABLE …) toast the server's reason, else spec §8's "submit failed".
 */
export function applyBooking(body: BookingApply, idempotencyKey: string): Promise<BookingApplied> {
  return request({
    method: 'POST',
    path: '/user/booking/bookingApply',
    body,
    defaultError: 'SUBMIT_FAILED',
    schema: BookingAppliedSchema,
    idempotencyKey,
  })
}

/** GET /user/booking/queryBookingList: one page of the caller's counter cash bookings. */
export function getBookings(page: number): Promise<BookingsPage> {
  return requestPage({
    path: '/user/booking/queryBookingList',
    query: { page, pageSize: BOOKINGS_PAGE_SIZE },
    defaultError: 'GET_LIST_FAILED',
    schema: BookingsPageSchema,
  })
}

export function bookingsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: [...BOOKINGS_KEY, 'list'],
    queryFn: ({ pageParam }) => getBookings(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  })
}

/** `fresh`: read again on mount even when cached (a screen that must show a booking just made). */
export function useBookings({ fresh = false }: { fresh?: boolean } = {}) {
  return useInfiniteQuery({
    ...bookingsQueryOptions(),
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  })
}

/**
 * POST /user/booking/{id}/cancel: the buyer calls off a booking before its day; the place and the
 * orders are free again (BOOKING_NOT_CANCELLABLE on the day or after).
 */
export function cancelBooking(bookingId: number): Promise<Booking> {
  return request({
    method: 'POST',
    path: `/user/booking/${bookingId}/cancel`,
    defaultError: 'OPERATION_FAILED',
    schema: BookingSchema,
  })
}

/**
 * Booking and cancelling with the cache they own: the bookings, the order lists (a booked order
 * is paid offline), the slots' places left (the delivery info) and the user centre's counters.
 * Refreshed after a refusal too (the slot or the orders were stale); not when nothing was sent.
 */
const refreshAfterBooking = (queryClient: QueryClient) => (error: unknown) =>
  neverSent(error)
    ? undefined
    : Promise.all([
        queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: DELIVERY_INFO_KEY }),
        queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])

export function applyBookingMutationOptions(queryClient: QueryClient) {
  const refresh = refreshAfterBooking(queryClient)
  return mutationOptions({
    mutationFn: ({ body, idempotencyKey }: { body: BookingApply; idempotencyKey: string }) =>
      applyBooking(body, idempotencyKey),
    onSettled: (_result, error) => refresh(error),
  })
}

export function useApplyBooking() {
  return useMutation(applyBookingMutationOptions(useQueryClient()))
}

export function cancelBookingMutationOptions(queryClient: QueryClient) {
  const refresh = refreshAfterBooking(queryClient)
  return mutationOptions({
    mutationFn: (bookingId: number) => cancelBooking(bookingId),
    onSettled: (_result, error) => refresh(error),
  })
}

export function useCancelBooking() {
  return useMutation(cancelBookingMutationOptions(useQueryClient()))
}
