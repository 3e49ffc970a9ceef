import {
  mutationOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query'
import {
  AddressIdSchema,
  AddressSchema,
  type Address,
  type AddressInput,
} from '@numisma/contracts/address'
import { neverSent, request } from '../api-client'
import { listOf } from '../list-of'
import { ADDRESSES_KEY } from './query-keys'

/** GET /user/address: the caller's addresses, the default first. */
export function getAddresses(): Promise<Address[]> {
  return request({
    path: '/user/address',
    defaultError: 'GET_ADDRESS_LIST_FAILED',
    schema: listOf(AddressSchema),
  })
}

/** GET /user/address/@getaddress/{id}: one address (404 when it is not the caller's). */
export function getAddress(id: number): Promise<Address> {
  return request({
    path: `/user/address/@getaddress/${id}`,
    defaultError: 'GET_ADDRESS_FAILED',
    schema: AddressSchema,
  })
}

/** POST /user/address: a new address; the server makes the first one the default. */
export function createAddress(input: AddressInput): Promise<Address> {
  return request({
    method: 'POST',
    path: '/user/address',
    body: input,
    defaultError: 'ADDRESS_ADD_FAILED',
    schema: AddressSchema,
  })
}

/** POST /user/address/{id}: replaces an address's fields. */
export function updateAddress(id: number, input: AddressInput): Promise<Address> {
  return request({
    method: 'POST',
    path: `/user/address/${id}`,
    body: input,
    defaultError: 'ADDRESS_UPDATE_FAILED',
    schema: AddressSchema,
  })
}

/** DELETE /user/address/{id}: the newest remaining address becomes the default if it was. */
export function deleteAddress(id: number): Promise<{ id: number }> {
  return request({
    method: 'DELETE',
    path: `/user/address/${id}`,
    defaultError: 'ADDRESS_DELETE_FAILED',
    schema: AddressIdSchema,
  })
}

/** POST /user/address/@defaddress/{id}: makes an address the default. */
export function setDefaultAddress(id: number): Promise<Address> {
  return request({
    method: 'POST',
    path: `/user/address/@defaddress/${id}`,
    defaultError: 'ADDRESS_SET_FAILED',
    schema: AddressSchema,
  })
}

export function getAddressesQueryOptions() {
  return queryOptions({ queryKey: [...ADDRESSES_KEY, 'list'], queryFn: getAddresses })
}

export function getAddressQueryOptions(id: number) {
  return queryOptions({ queryKey: [...ADDRESSES_KEY, 'one', id], queryFn: () => getAddress(id) })
}

export function useAddresses() {
  return useQuery(getAddressesQueryOptions())
}

export function useAddress(id: number | undefined) {
  return useQuery({ ...getAddressQueryOptions(id ?? 0), enabled: id !== undefined })
}

/**
 * Every address write changes the list (a default moves, one appears or goes), so each refreshes
 * the whole address root when it settled — also after a refusal, which means the list was stale;
 * not when the call never left the phone. Awaited, so the button stays busy until the list is fresh.
 */
const refreshAddresses = (queryClient: QueryClient) => (error: unknown) =>
  neverSent(error) ? undefined : queryClient.invalidateQueries({ queryKey: ADDRESSES_KEY })

export interface SaveAddress {
  /** Absent for a new address. */
  id?: number
  input: AddressInput
}

export function saveAddressMutationOptions(queryClient: QueryClient) {
  const refresh = refreshAddresses(queryClient)
  return mutationOptions({
    mutationFn: ({ id, input }: SaveAddress) =>
      id === undefined ? createAddress(input) : updateAddress(id, input),
    onSettled: (_address, error) => refresh(error),
  })
}

export function deleteAddressMutationOptions(queryClient: QueryClient) {
  const refresh = refreshAddresses(queryClient)
  return mutationOptions({
    mutationFn: (id: number) => deleteAddress(id),
    onSettled: (_result, error) => refresh(error),
  })
}

export function setDefaultAddressMutationOptions(queryClient: QueryClient) {
  const refresh = refreshAddresses(queryClient)
  return mutationOptions({
    mutationFn: (id: number) => setDefaultAddress(id),
    onSettled: (_address, error) => refresh(error),
  })
}

export function useSaveAddress() {
  return useMutation(saveAddressMutationOptions(useQueryClient()))
}

export function useDeleteAddress() {
  return useMutation(deleteAddressMutationOptions(useQueryClient()))
}

export function useSetDefaultAddress() {
  return useMutation(setDefaultAddressMutationOptions(useQueryClient()))
}
