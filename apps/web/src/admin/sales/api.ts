import { ForfeitSchema, type Forfeit } from '@numisma/contracts/account'
import {
  LiveViewSchema,
  OverdueOrderSchema,
  RelistedSchema,
  SaleResultsSchema,
  SalesSpecialSchema,
  type LiveView,
  type OverdueOrder,
  type Relist,
  type Relisted,
  type SaleResults,
  type SalesSpecial,
} from '@numisma/contracts/staff-sales'
import { HEADER } from '@numisma/contracts/signing'
import { z } from 'zod'
import { STAFF_BASE, staffRequest } from '../staff-api'

export function getSalesSpecials(): Promise<SalesSpecial[]> {
  return staffRequest('/sales/specials', z.array(SalesSpecialSchema))
}

export function getLiveView(specialId: number): Promise<LiveView> {
  return staffRequest(`/sales/specials/${specialId}/live`, LiveViewSchema)
}

export function getResults(specialId: number): Promise<SaleResults> {
  return staffRequest(`/sales/specials/${specialId}/results`, SaleResultsSchema)
}

/** The CSV download's address (same origin, the staff cookie goes with it). */
export const resultsCsvUrl = (specialId: number): string =>
  `${STAFF_BASE}/sales/specials/${specialId}/results.csv`

export function relistLot(lotId: number, input: Relist): Promise<Relisted> {
  return staffRequest(`/sales/lots/${lotId}/relist`, RelistedSchema, {
    method: 'POST',
    body: input,
  })
}

export function getOverdueOrders(): Promise<OverdueOrder[]> {
  return staffRequest('/sales/overdue', z.array(OverdueOrderSchema))
}

/** A money call: one Idempotency-Key per press, so a retried request takes the deposit once. */
export function forfeitOrder(orderId: number, idempotencyKey: string): Promise<Forfeit> {
  return staffRequest(`/orders/${orderId}/forfeit`, ForfeitSchema, {
    method: 'POST',
    headers: { [HEADER.idempotencyKey]: idempotencyKey },
  })
}
