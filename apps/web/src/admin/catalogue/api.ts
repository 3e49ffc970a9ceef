import { PriceStepSchema } from '@numisma/contracts/bidding'
import {
  LotCreatedSchema,
  SpecialCreatedSchema,
  type LotCreate,
  type SpecialCreate,
} from '@numisma/contracts/staff'
import {
  LotImportResultSchema,
  StaffLotSchema,
  StaffSpecialDetailSchema,
  StaffSpecialPageSchema,
  StaffSpecialSchema,
  type LotImport,
  type LotUpdate,
  type SpecialUpdate,
  type StaffSpecialsQuery,
} from '@numisma/contracts/staff-catalogue'
import { StaffCategorySchema } from '@numisma/contracts/staff-settings'
import { z } from 'zod'
import { STAFF_BASE, staffRequest } from '../staff-api'

export function getSpecials(query: Partial<StaffSpecialsQuery>) {
  return staffRequest('/specials', StaffSpecialPageSchema, { query })
}

export function getSpecial(id: number) {
  return staffRequest(`/specials/${id}`, StaffSpecialDetailSchema)
}

export function createSpecial(input: SpecialCreate) {
  return staffRequest('/specials', SpecialCreatedSchema, { method: 'POST', body: input })
}

export function updateSpecial(id: number, input: SpecialUpdate) {
  return staffRequest(`/specials/${id}`, StaffSpecialSchema, { method: 'PUT', body: input })
}

export function createLot(input: LotCreate) {
  return staffRequest('/lots', LotCreatedSchema, { method: 'POST', body: input })
}

export function updateLot(id: number, input: LotUpdate) {
  return staffRequest(`/lots/${id}`, StaffLotSchema, { method: 'PUT', body: input })
}

export function withdrawLot(id: number) {
  return staffRequest(`/lots/${id}`, StaffLotSchema, { method: 'DELETE' })
}

export function importLots(specialId: number, input: LotImport) {
  return staffRequest(`/specials/${specialId}/lots/import`, LotImportResultSchema, {
    method: 'POST',
    body: input,
  })
}

/** The template's address: a same-origin link, so the staff cookie goes with it. */
export const LOT_IMPORT_TEMPLATE_URL = `${STAFF_BASE}/lots/import-template`

/** Auction categories (the settings area's list), for the lot form's select. */
export function getCategories() {
  return staffRequest('/categories', z.array(StaffCategorySchema))
}

/** The increment table bids are judged by, so the form flags an off-grid price as it is typed. */
export function getPriceSteps() {
  return staffRequest('/price-steps', z.array(PriceStepSchema))
}
