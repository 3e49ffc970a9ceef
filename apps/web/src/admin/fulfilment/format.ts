import { PICKUP_SLOTS, type PickupSlot } from '@numisma/contracts/delivery'
import type { PickItem } from '@numisma/contracts/staff-fulfilment'
import type { PickListRequest } from './api'

const chinaTime = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
})

/** An instant as staff read it: China time, `2026/11/26 15:04`. */
export function formatChinaTime(iso: string): string {
  return chinaTime.format(new Date(iso))
}

/** Today's China calendar day, `YYYY-MM-DD`. */
export function chinaToday(now: number = Date.now()): string {
  return new Date(now + 8 * 3_600_000).toISOString().slice(0, 10)
}

/** What tells an item apart on a shelf: `第 3 号 · 拍品 41` or `货号 M000012`. */
export function itemNumber(
  item: Pick<PickItem, 'lotNo' | 'lotId' | 'productNo'>,
  words: { lotNo(n: number): string; lotId(n: number): string; productNo(no: string): string },
): string {
  const parts: string[] = []
  if (item.lotNo !== null) parts.push(words.lotNo(item.lotNo))
  if (item.lotId !== null) parts.push(words.lotId(item.lotId))
  if (item.productNo !== null) parts.push(words.productNo(item.productNo))
  return parts.join(' · ')
}

/**
 * The special a lot was sold in (`《民国机制币专场》`), which with its number finds the coin on the
 * shelf; null for a mall item.
 */
export function itemSpecial(
  item: Pick<PickItem, 'specialTitle'>,
  words: { special(title: string): string },
): string | null {
  const title = item.specialTitle?.trim() ?? ''
  return title === '' ? null : words.special(title)
}

/** `138****5678 · 北京市 朝阳区 建国路88号` and the like: an address on one line. */
export function addressLine(address: {
  province: string
  city: string
  detail: string
  country: string
}): string {
  const region = [address.province, address.city].filter((part) => part !== '').join(' ')
  return [address.country === '中国' ? '' : address.country, region, address.detail]
    .filter((part) => part !== '')
    .join(' ')
}

const asSlot = (value: string | null): PickupSlot | undefined =>
  PICKUP_SLOTS.find((slot) => slot === value)

/**
 * The pick list page's address: `?shipmentIds=1,2` (chosen express shipments) or `?date=&slot=`
 * (the counter's day). Without either, today's counter.
 */
export function pickListRequestOf(search: URLSearchParams, today: string): PickListRequest {
  const ids = (search.get('shipmentIds') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0)
  if (ids.length > 0) return { shipmentIds: [...new Set(ids)] }
  const date = search.get('date')
  return {
    date: date !== null && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : today,
    slot: asSlot(search.get('slot')),
  }
}

/** The search string that opens the pick list for a request. */
export function pickListSearch(request: PickListRequest): string {
  const search = new URLSearchParams()
  if ('shipmentIds' in request) search.set('shipmentIds', request.shipmentIds.join(','))
  else {
    search.set('date', request.date)
    if (request.slot !== undefined) search.set('slot', request.slot)
  }
  return `?${search.toString()}`
}
