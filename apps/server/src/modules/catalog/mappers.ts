import type {
  LotCard,
  LotDetail,
  MallItemCard,
  MallItemDetail,
  SpecialSummary,
} from '@numisma/contracts/catalog'
import { lotStatus, reserveMet } from '@numisma/domain/lot-status'
import type { LotRow, MallItemRow, SpecialRow } from './repository'

const iso = (ms: number): string => new Date(ms).toISOString()

export function parseImages(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/** The descriptive fields lots and mall items share. */
function itemFacts(row: LotRow | MallItemRow) {
  return {
    categoryId: row.category_id,
    subtitle: row.subtitle,
    description: row.description,
    images: parseImages(row.images),
    certNo: row.cert_no,
    year: row.year,
    denomination: row.denomination,
    material: row.material,
    exportBanned: row.export_banned === 1,
  }
}

export function toLotCard(row: LotRow, now: number): LotCard {
  return {
    id: row.id,
    specialId: row.special_id,
    lotNo: row.lot_no,
    title: row.title,
    image: parseImages(row.images)[0] ?? '',
    gradeCode: row.grade_code,
    gradingService: row.grading_service,
    startPrice: row.start_price,
    price: row.price,
    bidCount: row.bid_count,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    status: lotStatusOf(row, now),
  }
}

/** The columns of a lot row that decide its status. */
export type LotTimingRow = Pick<
  LotRow,
  'status' | 'starts_at' | 'ends_at' | 'price' | 'leader_id' | 'reserve_price'
>

/** A lot row's status now (domain's rule over its columns), for every module that reads lots. */
export const lotStatusOf = (row: LotTimingRow, now: number) => lotStatus(timing(row), now)

const timing = (row: LotTimingRow) => ({
  status: row.status,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  price: row.price,
  leaderId: row.leader_id,
  reservePrice: row.reserve_price,
})

export interface LotViewer {
  userId: number | null
  /** The viewer's proxy maximum on this lot, when they have one. */
  myMax: number | null
  /** The viewer's auction order for this lot, when they won it. */
  orderId: number | null
}

export function toLotDetail(
  row: LotRow & {
    special_title: string
    soft_close_window_seconds: number
    soft_close_extend_seconds: number
  },
  now: number,
  viewer: LotViewer,
): LotDetail {
  const card = toLotCard(row, now)
  const isViewer = viewer.userId !== null && row.leader_id === viewer.userId
  return {
    ...card,
    specialTitle: row.special_title,
    ...itemFacts(row),
    hasReserve: row.reserve_price !== null,
    reserveMet: reserveMet(timing(row)),
    // Leading is a live state; a closed lot is won or lost.
    leading: card.status === 'live' && isViewer,
    myMax: viewer.myMax,
    won: card.status === 'sold' && isViewer,
    orderId: card.status === 'sold' && isViewer ? viewer.orderId : null,
    softCloseWindowSeconds: row.soft_close_window_seconds,
    softCloseExtendSeconds: row.soft_close_extend_seconds,
  }
}

export function toMallCard(row: MallItemRow): MallItemCard {
  return {
    id: row.id,
    productNo: row.product_no,
    title: row.title,
    image: parseImages(row.images)[0] ?? '',
    gradeCode: row.grade_code,
    gradingService: row.grading_service,
    price: row.price,
    stock: row.stock,
    sold: row.sold,
  }
}

export function toMallDetail(
  row: MallItemRow,
  viewer: { watched: boolean; boughtByMe: number } = { watched: false, boughtByMe: 0 },
): MallItemDetail {
  return {
    ...toMallCard(row),
    ...itemFacts(row),
    limitPerUser: row.limit_per_user,
    onSale: row.on_sale === 1,
    ...viewer,
  }
}

export function toSpecialSummary(
  row: SpecialRow,
  now: number,
  counts: { lotCount: number; bidCount: number; lastEndsAt: number | null },
  previewImages: string[],
): SpecialSummary {
  // Lots close one after another; the special is over when its last lot is.
  const over = Math.max(row.ends_at, counts.lastEndsAt ?? 0)
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    cover: row.cover,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    status: now < row.starts_at ? 'preview' : now < over ? 'live' : 'ended',
    lotCount: counts.lotCount,
    bidCount: counts.bidCount,
    previewImages,
  }
}
