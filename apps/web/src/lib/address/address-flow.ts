import { safeRedirect } from '../redirect'

/**
 * Where the address pages were opened from. `/order/applySend` opens the list as
 * `/address/list?select=1&from=/order/applySend?…`: tapping an address (or saving a new one)
 * returns there with `addressId` added. Without `select`, `from` is only where saving goes back to.
 */
export interface AddressFlow {
  select: boolean
  /** A same-origin path, or null when the pages were opened on their own. */
  from: string | null
}

export function readAddressFlow(params: URLSearchParams): AddressFlow {
  const raw = params.get('from') ?? params.get('redirect')
  const from = raw ? safeRedirect(raw) : null
  return { select: params.get('select') === '1' && from !== null, from }
}

/** The flow's own query parameters, carried from the list to the edit page and back. */
export function flowQuery(flow: AddressFlow, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value))
  if (flow.select) params.set('select', '1')
  if (flow.from !== null) params.set('from', flow.from)
  const query = params.toString()
  return query ? `?${query}` : ''
}

/** `from` with `addressId` set (replacing one it had), keeping its other parameters and hash. */
export function withAddressId(from: string, addressId: number): string {
  const url = new URL(from, 'http://app.invalid')
  url.searchParams.set('addressId', String(addressId))
  return `${url.pathname}${url.search}${url.hash}`
}

/** Where tapping an address in the list leads: back to the caller in select mode, else nowhere. */
export function pickTarget(flow: AddressFlow, addressId: number): string | null {
  return flow.select && flow.from !== null ? withAddressId(flow.from, addressId) : null
}

/** Where saving an address leads: the caller (with the address when it is picking one), or the list. */
export function afterSaveTarget(flow: AddressFlow, addressId: number): string {
  if (flow.from === null) return '/address/list'
  return flow.select ? withAddressId(flow.from, addressId) : flow.from
}
