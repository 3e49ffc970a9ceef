import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import {
  DeliveryInfoSchema,
  ExitBanSchema,
  KeepFeeSchema,
  type DeliveryInfo,
  type ExitBan,
  type KeepFee,
} from '@numisma/contracts/delivery'
import { isNotFound, request, type ApiError } from '../api-client'
import { DELIVERY_INFO_KEY, DELIVERY_KEY } from './query-keys'

export interface DeliveryInfoQuery {
  /** The orders to quote (none: the orders in storage and the bookable days only). */
  orderIds?: readonly number[]
  /** Express: where they would go. */
  addressId?: number
  insured?: boolean
}

/** The query string of a delivery-info read: only what is set, order ids comma-separated. */
function infoQuery(query: DeliveryInfoQuery): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  if (query.orderIds && query.orderIds.length > 0) out.orderIds = query.orderIds.join(',')
  if (query.addressId !== undefined) out.addressId = query.addressId
  if (query.insured !== undefined) out.insured = query.insured ? '1' : '0'
  return out
}

/**
 * A quote for orders that have just left storage (applied for, or gone) is refused; the screen
 * already holds the fresh list without them and quotes again, so that refusal is not toasted.
 */
const staleQuote = (error: ApiError) => error.code === 'ORDER_NOT_SHIPPABLE' || isNotFound(error)

/**
 * GET /api/user/logistic/delivery/query: the caller's paid orders in storage with their storage
 * fees, the bookable days with places left, and — for chosen orders — what applying would cost.
 */
export function getDeliveryInfo(query: DeliveryInfoQuery = {}): Promise<DeliveryInfo> {
  const quoting = query.orderIds !== undefined && query.orderIds.length > 0
  return request({
    path: '/api/user/logistic/delivery/query',
    query: infoQuery(query),
    defaultError: 'GET_INFO_FAILED',
    schema: DeliveryInfoSchema,
    ...(quoting ? { silent: staleQuote } : {}),
  })
}

export function deliveryInfoQueryOptions(query: DeliveryInfoQuery = {}) {
  const ids = query.orderIds ? [...query.orderIds].sort((a, b) => a - b).join(',') : ''
  return queryOptions({
    queryKey: [...DELIVERY_INFO_KEY, ids, query.addressId ?? null, query.insured ?? false],
    queryFn: () => getDeliveryInfo(query),
  })
}

/** The info for a changing selection: the last answer stays on screen while the next one loads. */
export function useDeliveryInfo(query: DeliveryInfoQuery = {}, enabled = true) {
  return useQuery({
    ...deliveryInfoQueryOptions(query),
    placeholderData: keepPreviousData,
    enabled,
  })
}

/** GET /user/3_3/logistic/queryKeepFee?value=: the insurance fee for goods declared at `value`. */
export function getKeepFee(value: number): Promise<KeepFee> {
  return request({
    path: '/user/3_3/logistic/queryKeepFee',
    query: { value },
    defaultError: 'GET_INFO_FAILED',
    schema: KeepFeeSchema,
  })
}

export function keepFeeQueryOptions(value: number) {
  return queryOptions({
    queryKey: [...DELIVERY_KEY, 'keepFee', value],
    queryFn: () => getKeepFee(value),
    staleTime: 5 * 60_000,
  })
}

export function useKeepFee(value: number | undefined) {
  return useQuery({ ...keepFeeQueryOptions(value ?? 0), enabled: value !== undefined })
}

export interface ExitBanQuery {
  orderIds: readonly number[]
  /** ISO 3166-1 code, as the address has it. */
  countryId: string
  provinceId?: string | null
}

/**
 * GET /user/3_3/logistic/queryExitBan: may these orders go to that country (and province of CN)?
 * The orders holding an item that may not leave the mainland are named.
 */
export function getExitBan(query: ExitBanQuery): Promise<ExitBan> {
  return request({
    path: '/user/3_3/logistic/queryExitBan',
    query: {
      orderIds: query.orderIds.join(','),
      countryId: query.countryId,
      ...(query.provinceId ? { provinceId: query.provinceId } : {}),
    },
    defaultError: 'GET_INFO_FAILED',
    schema: ExitBanSchema,
  })
}

export function exitBanQueryOptions(query: ExitBanQuery) {
  return queryOptions({
    queryKey: [
      ...DELIVERY_KEY,
      'exitBan',
      [...query.orderIds].sort((a, b) => a - b).join(','),
      query.countryId,
      query.provinceId ?? null,
    ],
    queryFn: () => getExitBan(query),
  })
}

export function useExitBan(query: ExitBanQuery | undefined) {
  return useQuery({
    ...exitBanQueryOptions(query ?? { orderIds: [], countryId: 'CN' }),
    enabled: query !== undefined && query.orderIds.length > 0,
  })
}
