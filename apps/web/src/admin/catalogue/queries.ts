import type { LotCreate, SpecialCreate } from '@numisma/contracts/staff'
import type {
  LotImport,
  LotUpdate,
  SpecialUpdate,
  StaffSpecialsQuery,
} from '@numisma/contracts/staff-catalogue'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  createLot,
  createSpecial,
  getCategories,
  getPriceSteps,
  getSpecial,
  getSpecials,
  importLots,
  updateLot,
  updateSpecial,
  withdrawLot,
} from './api'

const CATALOGUE_KEY = ['staff', 'catalogue'] as const
const SPECIALS_KEY = [...CATALOGUE_KEY, 'specials'] as const
const specialKey = (id: number) => [...CATALOGUE_KEY, 'special', id] as const

export function useSpecials(query: Partial<StaffSpecialsQuery>) {
  return useQuery({
    queryKey: [...SPECIALS_KEY, query],
    queryFn: () => getSpecials(query),
    placeholderData: keepPreviousData,
  })
}

export function useSpecial(id: number) {
  return useQuery({ queryKey: specialKey(id), queryFn: () => getSpecial(id) })
}

export function useCategories() {
  return useQuery({ queryKey: [...CATALOGUE_KEY, 'categories'], queryFn: getCategories })
}

export function usePriceSteps() {
  return useQuery({ queryKey: [...CATALOGUE_KEY, 'price-steps'], queryFn: getPriceSteps })
}

/** Every change below touches a special's totals or lots: the area's reads refetch. */
function useCatalogueMutation<I, O>(work: (input: I) => Promise<O>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: work,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CATALOGUE_KEY }),
  })
}

export const useCreateSpecial = () =>
  useCatalogueMutation((input: SpecialCreate) => createSpecial(input))

export const useUpdateSpecial = () =>
  useCatalogueMutation(({ id, input }: { id: number; input: SpecialUpdate }) =>
    updateSpecial(id, input),
  )

export const useCreateLot = () => useCatalogueMutation((input: LotCreate) => createLot(input))

export const useUpdateLot = () =>
  useCatalogueMutation(({ id, input }: { id: number; input: LotUpdate }) => updateLot(id, input))

export const useWithdrawLot = () => useCatalogueMutation((id: number) => withdrawLot(id))

/** A dry run changes nothing, an import adds lots: only the latter refetches. */
export function useImportLots() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ specialId, input }: { specialId: number; input: LotImport }) =>
      importLots(specialId, input),
    onSuccess: (result) =>
      result.dryRun ? undefined : queryClient.invalidateQueries({ queryKey: CATALOGUE_KEY }),
  })
}
