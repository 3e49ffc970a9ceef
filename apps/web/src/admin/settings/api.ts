import { CouponCreatedSchema, type CouponCreate } from '@numisma/contracts/mall'
import {
  CreatedIdSchema,
  StaffBannerSchema,
  StaffCategorySchema,
  StaffCouponSchema,
  StaffMallCategorySchema,
  StaffMallItemPageSchema,
  StaffMallItemSchema,
  type BannerInput,
  type CategoryInput,
  type MallCategoryInput,
  type MallCategoryOrder,
  type MallCategoryRename,
  type MallItemNew,
  type MallItemUpdate,
  type PriceStepTable,
  type StaffBanner,
  type StaffCategory,
  type StaffCoupon,
  type StaffMallCategory,
  type StaffMallItem,
  type StaffMallItemPage,
  type StaffMallItemQuery,
  type StockAdjust,
} from '@numisma/contracts/staff-settings'
import { PriceStepSchema, type PriceStepRow } from '@numisma/contracts/bidding'
import { z } from 'zod'
import { staffRequest } from '../staff-api'

// Mall items.

export function getMallItems(query: Partial<StaffMallItemQuery>): Promise<StaffMallItemPage> {
  return staffRequest('/mall-items', StaffMallItemPageSchema, { query })
}

/** A new item with the edit form's fields (photos, description, grade …), in one transaction. */
export function createMallItem(input: MallItemNew): Promise<StaffMallItem> {
  return staffRequest('/mall-items/new', StaffMallItemSchema, { method: 'POST', body: input })
}

export function updateMallItem(id: number, input: MallItemUpdate): Promise<StaffMallItem> {
  return staffRequest(`/mall-items/${id}`, StaffMallItemSchema, { method: 'PUT', body: input })
}

export function adjustStock(id: number, input: StockAdjust): Promise<StaffMallItem> {
  return staffRequest(`/mall-items/${id}/stock`, StaffMallItemSchema, {
    method: 'POST',
    body: input,
  })
}

export function setOnSale(id: number, onSale: boolean): Promise<StaffMallItem> {
  return staffRequest(`/mall-items/${id}/sale`, StaffMallItemSchema, {
    method: 'PUT',
    body: { onSale },
  })
}

// Categories.

export function getCategories(): Promise<StaffCategory[]> {
  return staffRequest('/categories', z.array(StaffCategorySchema))
}

export function createCategory(input: CategoryInput) {
  return staffRequest('/categories', CreatedIdSchema, { method: 'POST', body: input })
}

export function updateCategory(id: number, input: CategoryInput): Promise<StaffCategory> {
  return staffRequest(`/categories/${id}`, StaffCategorySchema, { method: 'PUT', body: input })
}

export function orderCategories(ids: number[]) {
  return staffRequest('/categories/order', z.unknown(), { method: 'PUT', body: { ids } })
}

export function deleteCategory(id: number) {
  return staffRequest(`/categories/${id}`, StaffCategorySchema, { method: 'DELETE' })
}

export function getMallCategories(): Promise<StaffMallCategory[]> {
  return staffRequest('/mall-categories', z.array(StaffMallCategorySchema))
}

export function createMallCategory(input: MallCategoryInput) {
  return staffRequest('/mall-categories', CreatedIdSchema, { method: 'POST', body: input })
}

export function renameMallCategory(id: number, input: MallCategoryRename) {
  return staffRequest(`/mall-categories/${id}`, StaffMallCategorySchema, {
    method: 'PUT',
    body: input,
  })
}

export function orderMallCategories(input: MallCategoryOrder) {
  return staffRequest('/mall-categories/order', z.unknown(), { method: 'PUT', body: input })
}

export function deleteMallCategory(id: number) {
  return staffRequest(`/mall-categories/${id}`, StaffMallCategorySchema, { method: 'DELETE' })
}

// Banners.

export function getBanners(): Promise<StaffBanner[]> {
  return staffRequest('/banners', z.array(StaffBannerSchema))
}

export function createBanner(input: BannerInput) {
  return staffRequest('/banners', CreatedIdSchema, { method: 'POST', body: input })
}

export function updateBanner(id: number, input: BannerInput): Promise<StaffBanner> {
  return staffRequest(`/banners/${id}`, StaffBannerSchema, { method: 'PUT', body: input })
}

export function deleteBanner(id: number) {
  return staffRequest(`/banners/${id}`, StaffBannerSchema, { method: 'DELETE' })
}

// Coupons.

export function getCoupons(): Promise<StaffCoupon[]> {
  return staffRequest('/coupons', z.array(StaffCouponSchema))
}

export function createCoupon(input: CouponCreate) {
  return staffRequest('/coupons', CouponCreatedSchema, { method: 'POST', body: input })
}

export function stopCoupon(id: number) {
  return staffRequest(`/coupons/${id}/stop`, z.unknown(), { method: 'POST' })
}

// The increment table.

export function getPriceSteps(): Promise<PriceStepRow[]> {
  return staffRequest('/price-steps', z.array(PriceStepSchema))
}

export function replacePriceSteps(input: PriceStepTable): Promise<PriceStepRow[]> {
  return staffRequest('/price-steps', z.array(PriceStepSchema), { method: 'PUT', body: input })
}
