import { maskMobile } from '@numisma/contracts/passport'
import type { LotCreate, LotCreated } from '@numisma/contracts/staff'
import type {
  LiveLot,
  LiveView,
  OverdueOrder,
  Relist,
  Relisted,
  ResultLot,
  SaleResults,
  SalesBuyer,
  SalesSpecial,
  SaleState,
} from '@numisma/contracts/staff-sales'
import { resultOutcomeText } from '@numisma/contracts/staff-sales'
import { isOnGrid, nearestOnGrid, type PriceStep } from '@numisma/domain/increments'
import { lotStatus, reserveMet } from '@numisma/domain/lot-status'
import { saleTotals, unsoldReason } from '@numisma/domain/sales-totals'
import type { OrderStatus } from '@numisma/contracts/orders'
import { ORDER_STATUSES } from '@numisma/contracts/orders'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type { SalesLotRow, SalesRepository, SpecialSummaryRow } from './repository'

const GRADING_SERVICES = ['PCGS', 'NGC', 'PMG', 'GBCA'] as const

export interface SalesDeps {
  transact: Transact
  clock: Clock
  sales: Pick<SalesRepository, keyof SalesRepository>
  /** The increment table bids are judged by (bidding's), read before the relist's transaction. */
  priceSteps: () => Promise<PriceStep[]>
  /**
   * The catalogue's "add a lot" (ListingService.addLot) run inside the caller's transaction, so a
   * relist is one change: the new lot and the old lot's record of it, or neither (app.ts).
   */
  addLotIn: (tx: Tx, input: LotCreate, steps: PriceStep[]) => Promise<LotCreated>
  /** A collector's deposit now (the ledger's). */
  depositOf: (userId: number) => Promise<number>
}

const iso = (ms: number) => new Date(ms).toISOString()

const toOrderStatus = (status: string): OrderStatus =>
  (ORDER_STATUSES as readonly string[]).includes(status)
    ? (status as OrderStatus)
    : 'pending_payment'

function buyerOf(
  userId: number | null,
  mobile: string | null,
  display: string | null,
): SalesBuyer | null {
  if (userId === null) return null
  return { userId, mobile: maskMobile(mobile ?? ''), display: display ?? '' }
}

function firstImage(images: string): string | null {
  try {
    const list: unknown = JSON.parse(images)
    return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : null
  } catch {
    return null
  }
}

const statusOf = (lot: SalesLotRow, now: number) =>
  lotStatus(
    {
      status: lot.status,
      startsAt: lot.starts_at,
      endsAt: lot.ends_at,
      price: lot.price,
      leaderId: lot.leader_id,
      reservePrice: lot.reserve_price,
    },
    now,
  )

/** Upcoming before its start; closed once every lot has closed past its end; running between. */
export function saleState(special: SpecialSummaryRow, now: number): SaleState {
  if (now < special.starts_at) return 'upcoming'
  if (special.lot_count === 0) return now < special.ends_at ? 'running' : 'closed'
  const lastEnd = special.last_lot_ends_at ?? special.ends_at
  return special.open_lots === 0 && now >= lastEnd ? 'closed' : 'running'
}

const STATE_ORDER: Record<SaleState, number> = { running: 0, upcoming: 1, closed: 2 }

/** The sales area's use cases (issue 12): the live view, closing results, relisting, overdue. */
export class SalesService {
  constructor(private readonly deps: SalesDeps) {}

  /** Running specials first (ending soonest first), then upcoming, then closed (latest first). */
  async specials(): Promise<SalesSpecial[]> {
    const now = this.deps.clock.now()
    const rows = await this.deps.sales.specials()
    return rows
      .map((row) => this.special(row, now))
      .sort((a, b) => {
        const byState = STATE_ORDER[a.state] - STATE_ORDER[b.state]
        if (byState !== 0) return byState
        if (a.state === 'closed') return Date.parse(b.endsAt) - Date.parse(a.endsAt)
        return Date.parse(a.endsAt) - Date.parse(b.endsAt)
      })
  }

  async live(specialId: number): Promise<LiveView> {
    const special = await this.requireSpecial(specialId)
    const rows = await this.deps.sales.liveLots(specialId)
    const now = this.deps.clock.now()
    const lots: LiveLot[] = rows.map((row) => ({
      id: row.id,
      lotNo: row.lot_no,
      title: row.title,
      image: firstImage(row.images),
      startPrice: row.start_price,
      reservePrice: row.reserve_price,
      price: row.price,
      bidCount: row.bid_count,
      watchers: row.watchers,
      leader: buyerOf(row.leader_id, row.leader_mobile, row.leader_display),
      reserveMet: reserveMet({ price: row.price, reservePrice: row.reserve_price }),
      endsAt: iso(row.ends_at),
      status: statusOf(row, now),
    }))
    return {
      special: this.special(special, now),
      lots,
      totals: saleTotals(lots),
      serverTime: iso(now),
    }
  }

  async results(specialId: number): Promise<SaleResults> {
    const special = await this.requireSpecial(specialId)
    const rows = await this.deps.sales.resultLots(specialId)
    const now = this.deps.clock.now()
    const lots: ResultLot[] = rows.map((row) => {
      const status = statusOf(row, now)
      const order =
        row.order_id === null || row.order_status === null
          ? null
          : { id: row.order_id, status: toOrderStatus(row.order_status) }
      const relistedAs =
        row.relisted_as === null || row.relisted_into === null
          ? null
          : { lotId: row.relisted_as, specialId: row.relisted_into }
      return {
        id: row.id,
        lotNo: row.lot_no,
        title: row.title,
        status,
        startPrice: row.start_price,
        reservePrice: row.reserve_price,
        hammer: status === 'sold' ? row.price : null,
        highestBid: row.price,
        highestBidder:
          row.price === null ? null : buyerOf(row.leader_id, row.leader_mobile, row.leader_display),
        unsoldReason:
          status === 'unsold'
            ? unsoldReason({
                price: row.price,
                bidCount: row.bid_count,
                reservePrice: row.reserve_price,
              })
            : null,
        bidCount: row.bid_count,
        buyer: buyerOf(row.buyer_id, row.buyer_mobile, row.buyer_display),
        order,
        relistedAs,
        relistable:
          relistedAs === null &&
          (row.status === 'unsold' || (row.status === 'sold' && order?.status === 'cancelled')),
      }
    })
    return {
      special: this.special(special, now),
      lots,
      totals: saleTotals(lots.map((l) => ({ ...l, price: l.hammer }))),
    }
  }

  /** The results as a spreadsheet (UTF-8 with BOM, so Excel reads the Chinese). */
  async resultsCsv(specialId: number): Promise<{ filename: string; csv: string }> {
    const results = await this.results(specialId)
    return { filename: `special-${specialId}-results.csv`, csv: resultsCsv(results) }
  }

  async overdue(): Promise<OverdueOrder[]> {
    const rows = await this.deps.sales.overdueOrders()
    const deposits = new Map<number, number>()
    for (const userId of new Set(rows.map((r) => r.user_id))) {
      deposits.set(userId, await this.deps.depositOf(userId))
    }
    return rows.map((row) => ({
      orderId: row.order_id,
      status: toOrderStatus(row.status),
      lotId: row.lot_id,
      lotNo: row.lot_no,
      title: row.title,
      specialId: row.special_id,
      specialTitle: row.special_title,
      buyer: buyerOf(row.user_id, row.mobile, row.display)!,
      hammer: row.amount,
      total: row.total,
      startPrice: row.start_price,
      reservePrice: row.reserve_price,
      dueAt: row.due_at === null ? null : iso(row.due_at),
      deposit: deposits.get(row.user_id) ?? 0,
      relistedAs:
        row.relisted_as === null || row.relisted_into === null
          ? null
          : { lotId: row.relisted_as, specialId: row.relisted_into },
    }))
  }

  /**
   * Relists an unsold lot, or a sold one whose order was forfeited (closed as cancelled), once: a
   * new lot in a special that has not closed, with the old one's item (title, texts, photos,
   * category, grade, grading service and cert number, export flag). Returns the old lot's state
   * beside the result, for the audit line.
   */
  async relist(
    lotId: number,
    input: Relist,
    staffId: number,
  ): Promise<{ before: { lotId: number; status: string; relistedAs: null }; after: Relisted }> {
    const steps = await this.deps.priceSteps()
    const { sales } = this.deps
    return this.deps.transact(async (tx) => {
      const lot = await sales.lockLot(tx, lotId)
      if (!lot) throw new AppError('NOT_FOUND', { lotId })
      const done = await sales.relistOf(tx, lotId)
      if (done) {
        throw new AppError('LOT_ALREADY_RELISTED', {
          lotId,
          newLotId: done.new_lot_id,
          specialId: done.special_id,
        })
      }
      const orderStatus = await sales.orderStatusOfLot(tx, lotId)
      const relistable =
        lot.status === 'unsold' || (lot.status === 'sold' && orderStatus === 'cancelled')
      if (!relistable) {
        throw new AppError('LOT_NOT_RELISTABLE', {
          lotId,
          status: lot.status,
          orderStatus: orderStatus ?? null,
        })
      }
      const target = await sales.specialById(tx, input.specialId)
      if (!target) throw new AppError('NOT_FOUND', { specialId: input.specialId })
      // After the locks: the clock decides whether the special still takes new lots.
      const now = this.deps.clock.now()
      if (now >= target.ends_at) {
        throw new AppError('SPECIAL_CLOSED', { specialId: target.id })
      }
      const startPrice = input.startPrice ?? onGridAtOrBelow(lot.start_price, steps)
      const reservePrice = input.reservePrice === undefined ? lot.reserve_price : input.reservePrice
      const created = await this.deps.addLotIn(
        tx,
        {
          specialId: target.id,
          title: lot.title,
          subtitle: lot.subtitle,
          description: lot.description,
          startPrice,
          reservePrice: reservePrice ?? undefined,
          categoryId: lot.category_id ?? undefined,
          gradeCode: lot.grade_code,
          gradingService: GRADING_SERVICES.find((s) => s === lot.grading_service),
          certNo: lot.cert_no ?? undefined,
          images: parseImages(lot.images),
          exportBanned: lot.export_banned === 1,
        },
        steps,
      )
      await sales.recordRelist(tx, {
        lotId,
        newLotId: created.id,
        specialId: target.id,
        staffId,
        now,
      })
      return {
        before: { lotId, status: lot.status, relistedAs: null },
        after: {
          lotId,
          newLotId: created.id,
          specialId: target.id,
          lotNo: created.lotNo,
          startPrice,
          reservePrice,
          endsAt: created.endsAt,
        },
      }
    })
  }

  private async requireSpecial(id: number): Promise<SpecialSummaryRow> {
    const special = await this.deps.sales.special(id)
    if (!special) throw new AppError('NOT_FOUND', { specialId: id })
    return special
  }

  private special(row: SpecialSummaryRow, now: number): SalesSpecial {
    return {
      id: row.id,
      title: row.title,
      startsAt: iso(row.starts_at),
      endsAt: iso(row.ends_at),
      lastLotEndsAt: row.last_lot_ends_at === null ? null : iso(row.last_lot_ends_at),
      state: saleState(row, now),
      lotCount: row.lot_count,
    }
  }
}

function parseImages(images: string): string[] {
  try {
    const list: unknown = JSON.parse(images)
    return Array.isArray(list) ? list.filter((i): i is string => typeof i === 'string') : []
  } catch {
    return []
  }
}

/** The old start price, moved down onto the grid if an operator changed the grid since. */
function onGridAtOrBelow(amount: number, steps: PriceStep[]): number {
  if (isOnGrid(amount, steps)) return amount
  const { below, above } = nearestOnGrid(amount, steps)
  return below ?? above
}

const ORDER_TEXT: Record<OrderStatus, string> = {
  pending_payment: '待付款',
  paid: '已付款',
  delivery_applied: '已申请发货',
  shipped: '已发货',
  completed: '已完成',
  cancelled: '已取消（没收保证金）',
  overdue: '已逾期',
}

const yuan = (fen: number | null): string =>
  fen === null ? '' : `${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, '0')}`

/** A spreadsheet cell: quoted when needed, and never read as a formula. */
function cell(value: string | number): string {
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * One line per lot with the same columns whatever its outcome: 落槌价 and 买家 only for a lot sold,
 * 最高出价 and 最高出价人 for every lot bid on (so a lot unsold below its reserve names whom the
 * house may call), and 结果 in the results page's words.
 */
export function resultsCsv(results: SaleResults): string {
  const header = [
    '拍品号',
    '拍品',
    '结果',
    '保留价（元）',
    '落槌价（元）',
    '最高出价（元）',
    '出价次数',
    '买家ID',
    '买家手机',
    '最高出价人ID',
    '最高出价人手机',
    '订单号',
    '订单状态',
    '重新上拍为',
  ]
  const lines = results.lots.map((lot) =>
    [
      lot.lotNo,
      lot.title,
      resultOutcomeText(lot),
      yuan(lot.reservePrice),
      yuan(lot.hammer),
      yuan(lot.highestBid),
      lot.bidCount,
      lot.buyer?.userId ?? '',
      lot.buyer?.mobile ?? '',
      lot.highestBidder?.userId ?? '',
      lot.highestBidder?.mobile ?? '',
      lot.order?.id ?? '',
      lot.order ? ORDER_TEXT[lot.order.status] : '',
      lot.relistedAs ? `拍品 ${lot.relistedAs.lotId}（专场 ${lot.relistedAs.specialId}）` : '',
    ]
      .map(cell)
      .join(','),
  )
  const t = results.totals
  const blanks = (n: number) => Array.from({ length: n }, () => '')
  const summary = [
    '',
    ['合计', `${t.lots} 件`, `成交 ${t.sold} 件`, '', yuan(t.hammer), '', t.bids, ...blanks(7)]
      .map(cell)
      .join(','),
    ['成交率', `${t.sellThrough}%`].map(cell).join(','),
  ]
  return `\uFEFF${[header.map(cell).join(','), ...lines, ...summary].join('\r\n')}\r\n`
}
