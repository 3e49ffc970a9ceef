import type { StaffCoupon, StaffMallCategory } from '@numisma/contracts/staff-settings'
import { formatFen } from '@numisma/contracts/money'

const CHINA_OFFSET_MS = 8 * 60 * 60 * 1000

/** Wall-clock fields as a date picker holds them, read as China time. */
export interface WallClock {
  year: number
  /** 0–11 */
  month: number
  date: number
  hour: number
  minute: number
}

/** The instant a China wall-clock time names, as ISO (whatever the desk computer's zone). */
export function chinaWallToIso(wall: WallClock): string {
  return new Date(
    Date.UTC(wall.year, wall.month, wall.date, wall.hour, wall.minute) - CHINA_OFFSET_MS,
  ).toISOString()
}

/** The China wall-clock fields of an instant. */
export function isoToChinaWall(iso: string): WallClock {
  const d = new Date(Date.parse(iso) + CHINA_OFFSET_MS)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    date: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
  }
}

const chinaTime = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
})

/** `2026/11/26 15:04`, China time. */
export const formatChinaTime = (iso: string): string => chinaTime.format(new Date(iso))

/** Yuan typed in an InputNumber (2 decimals) as fen. */
export const fenOf = (yuan: number): number => Math.round(yuan * 100)
/** Fen as yuan for an InputNumber. */
export const yuanOf = (fen: number): number => fen / 100

/** `满100减20` / `8折 最多减50` / `无门槛减5`. */
export function couponTerms(
  coupon: Pick<StaffCoupon, 'kind' | 'threshold' | 'amount' | 'percent' | 'cap'>,
): string {
  const over = coupon.threshold > 0 ? `满${formatFen(coupon.threshold)}` : '无门槛'
  if (coupon.kind === 'amount') return `${over}减${formatFen(coupon.amount ?? 0)}`
  const off = `${over}减${coupon.percent ?? 0}%`
  return coupon.cap === null ? off : `${off}，最多减${formatFen(coupon.cap)}`
}

export interface CategoryNode extends StaffMallCategory {
  children?: CategoryNode[]
  /** Names from the top, `钱币 / 古钱币`. */
  path: string
}

/** The flat mall categories as a tree (siblings in their order), each with its path. */
export function categoryTree(rows: readonly StaffMallCategory[]): CategoryNode[] {
  const sorted = [...rows].sort((a, b) => a.sort - b.sort || a.id - b.id)
  const build = (parentId: number | null, above: string): CategoryNode[] =>
    sorted
      .filter((r) => r.parentId === parentId)
      .map((r) => {
        const path = above ? `${above} / ${r.name}` : r.name
        const children = build(r.id, path)
        return { ...r, path, ...(children.length > 0 ? { children } : {}) }
      })
  return build(null, '')
}

/** Every node of the tree, depth first (for a select of categories). */
export function flatten(nodes: readonly CategoryNode[]): CategoryNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])])
}

/** `ids` with the one at `index` swapped with its neighbour `by` places away (±1). */
export function moved(ids: readonly number[], index: number, by: -1 | 1): number[] {
  const next = [...ids]
  const other = index + by
  if (other < 0 || other >= next.length) return next
  ;[next[index], next[other]] = [next[other]!, next[index]!]
  return next
}
