import type { CouponCreate } from '@numisma/contracts/mall'
import type {
  BannerInput,
  CategoryInput,
  MallCategoryInput,
  MallCategoryOrder,
  MallCategoryRename,
  MallItemNew,
  MallItemUpdate,
  PriceStepTable,
  StockAdjust,
} from '@numisma/contracts/staff-settings'
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query'
import * as api from './api'

const KEY = ['staff', 'settings'] as const
export const MALL_ITEMS_KEY = [...KEY, 'mall-items'] as const
const CATEGORIES_KEY = [...KEY, 'categories'] as const
const MALL_CATEGORIES_KEY = [...KEY, 'mall-categories'] as const
const BANNERS_KEY = [...KEY, 'banners'] as const
const COUPONS_KEY = [...KEY, 'coupons'] as const
const PRICE_STEPS_KEY = [...KEY, 'price-steps'] as const

/** A mutation that refreshes `keys` when it succeeds. */
function useChange<TInput, TResult>(
  mutationFn: (input: TInput) => Promise<TResult>,
  keys: QueryKey[],
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}

// Mall items (the table pages through the server itself; mutations refresh it).

export const useCreateMallItem = () =>
  useChange(
    (input: MallItemNew) => api.createMallItem(input),
    [MALL_ITEMS_KEY, MALL_CATEGORIES_KEY],
  )
export const useUpdateMallItem = () =>
  useChange(
    ({ id, input }: { id: number; input: MallItemUpdate }) => api.updateMallItem(id, input),
    [MALL_ITEMS_KEY, MALL_CATEGORIES_KEY],
  )
export const useAdjustStock = () =>
  useChange(
    ({ id, input }: { id: number; input: StockAdjust }) => api.adjustStock(id, input),
    [MALL_ITEMS_KEY],
  )
export const useSetOnSale = () =>
  useChange(
    ({ id, onSale }: { id: number; onSale: boolean }) => api.setOnSale(id, onSale),
    [MALL_ITEMS_KEY],
  )

// Categories.

export const useCategories = () =>
  useQuery({ queryKey: CATEGORIES_KEY, queryFn: api.getCategories })
export const useCreateCategory = () =>
  useChange((input: CategoryInput) => api.createCategory(input), [CATEGORIES_KEY])
export const useUpdateCategory = () =>
  useChange(
    ({ id, input }: { id: number; input: CategoryInput }) => api.updateCategory(id, input),
    [CATEGORIES_KEY],
  )
export const useOrderCategories = () =>
  useChange((ids: number[]) => api.orderCategories(ids), [CATEGORIES_KEY])
export const useDeleteCategory = () =>
  useChange((id: number) => api.deleteCategory(id), [CATEGORIES_KEY])

export const useMallCategories = () =>
  useQuery({ queryKey: MALL_CATEGORIES_KEY, queryFn: api.getMallCategories })
export const useCreateMallCategory = () =>
  useChange((input: MallCategoryInput) => api.createMallCategory(input), [MALL_CATEGORIES_KEY])
export const useRenameMallCategory = () =>
  useChange(
    ({ id, input }: { id: number; input: MallCategoryRename }) => api.renameMallCategory(id, input),
    [MALL_CATEGORIES_KEY, MALL_ITEMS_KEY],
  )
export const useOrderMallCategories = () =>
  useChange((input: MallCategoryOrder) => api.orderMallCategories(input), [MALL_CATEGORIES_KEY])
export const useDeleteMallCategory = () =>
  useChange((id: number) => api.deleteMallCategory(id), [MALL_CATEGORIES_KEY])

// Banners.

export const useBanners = () => useQuery({ queryKey: BANNERS_KEY, queryFn: api.getBanners })
export const useCreateBanner = () =>
  useChange((input: BannerInput) => api.createBanner(input), [BANNERS_KEY])
export const useUpdateBanner = () =>
  useChange(
    ({ id, input }: { id: number; input: BannerInput }) => api.updateBanner(id, input),
    [BANNERS_KEY],
  )
export const useDeleteBanner = () => useChange((id: number) => api.deleteBanner(id), [BANNERS_KEY])

// Coupons.

export const useCoupons = () => useQuery({ queryKey: COUPONS_KEY, queryFn: api.getCoupons })
export const useCreateCoupon = () =>
  useChange((input: CouponCreate) => api.createCoupon(input), [COUPONS_KEY])
export const useStopCoupon = () => useChange((id: number) => api.stopCoupon(id), [COUPONS_KEY])

// The increment table.

export const usePriceSteps = () =>
  useQuery({ queryKey: PRICE_STEPS_KEY, queryFn: api.getPriceSteps })
export const useReplacePriceSteps = () =>
  useChange((input: PriceStepTable) => api.replacePriceSteps(input), [PRICE_STEPS_KEY])
