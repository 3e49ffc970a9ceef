import {
  infiniteQueryOptions,
  mutationOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  ShipmentChangedSchema,
  ShipmentSchema,
  ShipmentsPageSchema,
  type Shipment,
  type ShipmentChanged,
  type ShipmentsPage,
} from '@numisma/contracts/delivery'
import { neverSent, request, requestPage } from '../api-client'
import { nextPageParam } from '../paging'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { SHIPMENTS_KEY } from './query-keys'

export const SHIPMENTS_PAGE_SIZE = 20

/** Which list: shipped and waiting to receive, or the records of completed shipments and pickups. */
export type ShipmentsList = 'waiting' | 'completed'

const LIST_PATH: Record<ShipmentsList, string> = {
  waiting: '/api/user/logistic/waiting',
  completed: '/api/user/logistic/completed',
}

/**
 * GET /api/user/logistic/waiting (shipped, waiting to receive) or /api/user/logistic/completed
 * (shipped and pickup records): one page of the caller's shipments, newest first.
 */
export function getShipments(list: ShipmentsList, page: number): Promise<ShipmentsPage> {
  return requestPage({
    path: LIST_PATH[list],
    query: { page, pageSize: SHIPMENTS_PAGE_SIZE },
    defaultError: 'GET_LIST_FAILED',
    schema: ShipmentsPageSchema,
  })
}

export function shipmentsQueryOptions(list: ShipmentsList) {
  return infiniteQueryOptions({
    queryKey: [...SHIPMENTS_KEY, list],
    queryFn: ({ pageParam }) => getShipments(list, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPageParam,
  })
}

export function useShipments(list: ShipmentsList) {
  return useInfiniteQuery(shipmentsQueryOptions(list))
}

/** GET /user/{id}/@logistic: one of the caller's shipments (another user's is a 404). */
export function getShipment(id: number): Promise<Shipment> {
  return request({
    path: `/user/${id}/@logistic`,
    defaultError: 'GET_INFO_FAILED',
    schema: ShipmentSchema,
  })
}

export function shipmentQueryOptions(id: number) {
  return queryOptions({ queryKey: [...SHIPMENTS_KEY, 'one', id], queryFn: () => getShipment(id) })
}

export function useShipment(id: number | undefined) {
  return useQuery({ ...shipmentQueryOptions(id ?? 0), enabled: id !== undefined })
}

/**
 * POST /user/upLogisticStatus: the buyer confirms a shipped shipment arrived; its orders complete.
 * A failure toasts the server's reason or spec §8's "submit failed".
 */
export function confirmReceipt(shipmentId: number): Promise<ShipmentChanged> {
  return request({
    method: 'POST',
    path: '/user/upLogisticStatus',
    body: { shipmentId },
    defaultError: 'SUBMIT_FAILED',
    schema: ShipmentChangedSchema,
  })
}

/**
 * Confirming with the cache it owns: the shipments, the order lists (its orders move to
 * completed) and the user centre's counters. A refusal (completed meanwhile) means the list was
 * stale, so it refreshes too; awaited, so the button stays busy until the list is fresh.
 */
export function confirmReceiptMutationOptions(queryClient: QueryClient) {
  return mutationOptions({
    mutationFn: (shipmentId: number) => confirmReceipt(shipmentId),
    onSettled: (_result, error) => {
      if (neverSent(error)) return undefined
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: SHIPMENTS_KEY }),
        queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
        queryClient.invalidateQueries({ queryKey: USER_STATISTICS_KEY }),
      ])
    },
  })
}

export function useConfirmReceipt() {
  return useMutation(confirmReceiptMutationOptions(useQueryClient()))
}
