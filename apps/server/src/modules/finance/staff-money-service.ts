import type {
  Adjustment,
  AdjustmentRequest,
  MoneyBalances,
  MoneyLedgerPage,
  MoneyUser,
  MoneyUserQuery,
  Refund,
  RefundableOrder,
  RefundsPage,
} from '@numisma/contracts/staff-money'
import type { LedgerRefType } from '@numisma/contracts/ledger-labels'
import { adjustment, refundRefusal } from '@numisma/domain/money-desk'
import { refundOrder } from '@numisma/domain/postings'
import { depositInUse } from '@numisma/domain/quota'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type Claim, type IdempotencyStore, requestHash } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { BankingLedger, HeldDeposit } from './service'
import type { RefundOrderRow, RefundRow, StaffMoneyRepository } from './staff-money-repository'

export interface MoneyDeskDeps {
  transact: Transact
  clock: Clock
  repo: Pick<StaffMoneyRepository, keyof StaffMoneyRepository>
  ledger: BankingLedger
  /** The deposit rule withdrawals use (BiddingService.heldDeposit, under the bids' lock). */
  heldDeposit: HeldDeposit
  /** Quota and exposure as last committed (BiddingService.quotaOf). */
  quotaOf(userId: number): Promise<{ quota: number; exposure: number; freeDeposit: number }>
  idempotency: IdempotencyStore
  /** The user's balances read outside a transaction (the lookup). */
  reader: Tx
}

/** Who acts: the staff member (their keys are owned by −staffId, apart from users'). */
export interface DeskActor {
  staffId: number
  idempotencyKey?: string
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * Withdrawals, forfeits and the credits of a payment that could not pay keep no transfer id in
 * their own tables; the server writes those memos itself in one fixed form (finance/service.ts,
 * orders/overdue.ts, payments/service.ts), so the id is read from there.
 */
const MEMO_REFS: Record<string, { pattern: RegExp; type: LedgerRefType }> = {
  withdrawal: { pattern: /^withdrawal (\d+)$/, type: 'withdrawal' },
  withdrawal_paid: { pattern: /^withdrawal (\d+)$/, type: 'withdrawal' },
  withdrawal_refused: { pattern: /^withdrawal (\d+)$/, type: 'withdrawal' },
  forfeit: { pattern: /^forfeit order (\d+)$/, type: 'order' },
  payment_credit: { pattern: /^payment (\d+):/, type: 'payment' },
}

export function memoRefs(kind: string, memo: string): { type: LedgerRefType; id: number }[] {
  const rule = MEMO_REFS[kind]
  const id = rule ? rule.pattern.exec(memo)?.[1] : undefined
  return rule && id !== undefined ? [{ type: rule.type, id: Number(id) }] : []
}

function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    orderId: row.order_id,
    userId: row.user_id,
    kind: row.kind === 'mall' ? 'mall' : 'auction',
    amount: row.amount,
    fee: row.fee,
    reason: row.reason,
    transferId: row.transfer_id,
    staffId: row.staff_id,
    createdAt: iso(row.created_at),
    balanceBefore: row.balance_before,
    balanceAfter: row.balance_after,
  }
}

function toRefundable(row: RefundOrderRow): RefundableOrder {
  return {
    orderId: row.id,
    userId: row.user_id,
    mobile: row.mobile,
    kind: row.kind === 'mall' ? 'mall' : 'auction',
    title: row.title,
    status: row.status,
    goods: row.amount,
    discount: row.discount,
    fee: row.fee,
    total: row.total,
    payMethod: row.pay_method,
    paidAt: row.paid_at === null ? null : iso(row.paid_at),
    refusal: refundRefusal(row),
  }
}

/**
 * The cashier's desk (issue 12): a user's accounts at a glance, adjustments of a balance or
 * deposit, refunds of paid orders. Every movement is one ledger transfer in the use case's one
 * write transaction, taken after the rows it judges are locked; an Idempotency-Key replays the
 * first answer.
 */
export class MoneyDeskService {
  constructor(private readonly deps: MoneyDeskDeps) {}

  async lookup(query: MoneyUserQuery): Promise<MoneyUser> {
    const { repo, reader } = this.deps
    const user = await repo.user(query)
    if (!user) throw new AppError('NOT_FOUND', { ...query })
    const quota = await this.deps.quotaOf(user.id)
    return {
      userId: user.id,
      mobile: user.mobile,
      display: user.display,
      createdAt: iso(user.created_at),
      balances: await this.balances(reader, user.id),
      quota: quota.quota,
      exposure: quota.exposure,
      freeDeposit: quota.freeDeposit,
      orders: await repo.orderSummary(user.id),
    }
  }

  /**
   * The user's postings with what each transfer belongs to (refs) and the reason staff typed, so
   * the console says 订单 #12 or the adjustment's words instead of the internal memo.
   */
  async ledgerLines(userId: number, page: number, pageSize: number): Promise<MoneyLedgerPage> {
    const { rows, total } = await this.deps.repo.ledgerLines(userId, page, pageSize)
    const linked = await this.deps.repo.transferRefs([...new Set(rows.map((r) => r.transferId))])
    return {
      data: rows.map((r) => {
        const own = linked.filter((l) => l.transferId === r.transferId)
        return {
          transferId: r.transferId,
          kind: r.kind,
          memo: r.memo,
          refs: [
            ...own.map((l) => ({ type: l.type, id: l.id })),
            ...(own.length === 0 ? memoRefs(r.kind, r.memo) : []),
          ],
          reason: r.kind.startsWith('adjustment_')
            ? r.memo
            : (own.find((l) => l.reason !== null)?.reason ?? null),
          account: r.account,
          amount: r.amount,
          at: iso(r.created_at),
        }
      }),
      page,
      pageSize,
      total,
    }
  }

  /**
   * Credits or debits the user's balance or deposit against the clearing account
   * (packages/domain/src/money-desk.ts). A debit may not overdraw the balance (BALANCE_LOW) nor
   * take deposit that exposure or overdue won lots hold (DEPOSIT_IN_USE, the rule withdrawals
   * use, judged under the bids' exposure lock).
   */
  adjust(userId: number, request: AdjustmentRequest, actor: DeskActor): Promise<Adjustment> {
    const { transact, clock, ledger, repo } = this.deps
    return transact(async (tx) => {
      if (!(await repo.userExists(tx, userId))) throw new AppError('NOT_FOUND', { userId })
      // Both accounts locked (id order), so the before/after figures are this call's alone.
      await ledger.lock(tx, userId, ['balance', 'deposit'])
      const takesDeposit = request.account === 'deposit' && request.direction === 'debit'
      const held = takesDeposit ? await this.deps.heldDeposit(tx, userId) : null
      const now = clock.now()
      const claim = await this.claim<Adjustment>(tx, actor, { adjust: userId, ...request }, now)
      if (claim.kind === 'replay') return claim.result
      const before = await this.balances(tx, userId)
      if (request.direction === 'debit') {
        if (held) {
          const inUse = depositInUse(held, request.amount)
          if (inUse) throw new AppError('DEPOSIT_IN_USE', { ...inUse })
        } else if (request.amount > before.balance) {
          throw new AppError('BALANCE_LOW', { balance: before.balance })
        }
      }
      const transferId = await ledger.post(
        tx,
        userId,
        { kind: `adjustment_${request.direction}`, memo: request.reason, now },
        adjustment(request.account, request.direction, request.amount),
      )
      const result: Adjustment = {
        ...request,
        userId,
        transferId,
        before,
        after: await this.balances(tx, userId),
      }
      await this.complete(tx, actor, result)
      return result
    })
  }

  async refundableOrder(orderId: number): Promise<RefundableOrder> {
    const row = await this.deps.repo.order(orderId)
    if (!row) throw new AppError('NOT_FOUND', { orderId })
    return toRefundable(row)
  }

  /**
   * Refunds a paid order whose goods are still in storage, exactly once: under the order's row
   * lock its status flips paid → cancelled conditionally, a mall order's units go back on the
   * shelf (and out of 已售) and its coupon becomes usable again, and what was paid — goods less
   * discount from revenue, the fee from fees — goes back onto the buyer's balance as one transfer
   * (postings.ts refundOrder). ORDER_NOT_REFUNDABLE otherwise, naming why.
   */
  refund(orderId: number, reason: string, actor: DeskActor): Promise<Refund> {
    const { transact, clock, ledger, repo } = this.deps
    return transact(async (tx) => {
      const order = await repo.lockOrder(tx, orderId)
      if (!order) throw new AppError('NOT_FOUND', { orderId })
      const now = clock.now()
      const claim = await this.claim<Refund>(tx, actor, { refund: orderId, reason }, now)
      if (claim.kind === 'replay') return claim.result
      const refusal = refundRefusal(order)
      if (refusal) {
        throw new AppError('ORDER_NOT_REFUNDABLE', {
          orderId,
          reason: refusal,
          status: order.status,
        })
      }
      if (!(await repo.markRefunded(tx, orderId, now))) {
        throw new AppError('ORDER_NOT_REFUNDABLE', { orderId, reason: 'ALREADY_CANCELLED' })
      }
      if (order.kind === 'mall' && order.mall_item_id !== null) {
        await repo.returnSoldStock(tx, order.mall_item_id, order.quantity)
        if (order.user_coupon_id !== null) {
          await repo.returnUsedCoupon(tx, order.user_coupon_id, orderId)
        }
      }
      await ledger.lock(tx, order.user_id, ['balance'])
      const balanceBefore = await ledger.balanceIn(tx, order.user_id, 'balance')
      const transferId = await ledger.post(
        tx,
        order.user_id,
        { kind: 'refund', memo: `order ${orderId}: ${reason}`, now },
        refundOrder({ goods: order.amount, discount: order.discount, fee: order.fee }),
      )
      const balanceAfter = await ledger.balanceIn(tx, order.user_id, 'balance')
      const id = await repo.insertRefund(tx, {
        order_id: orderId,
        user_id: order.user_id,
        amount: order.amount - order.discount + order.fee,
        fee: order.fee,
        reason,
        transfer_id: transferId,
        staff_id: actor.staffId,
        balance_before: balanceBefore,
        balance_after: balanceAfter,
        created_at: now,
      })
      const row = await repo.refund(tx, id)
      if (!row) throw new AppError('NOT_FOUND', { refundId: id })
      const result = toRefund(row)
      await this.complete(tx, actor, result)
      return result
    })
  }

  async refunds(page: number, pageSize: number): Promise<RefundsPage> {
    const { rows, total } = await this.deps.repo.refunds(page, pageSize)
    return { data: rows.map(toRefund), page, pageSize, total }
  }

  private async balances(tx: Tx, userId: number): Promise<MoneyBalances> {
    const { ledger } = this.deps
    return {
      balance: await ledger.balanceIn(tx, userId, 'balance'),
      deposit: await ledger.balanceIn(tx, userId, 'deposit'),
      withdrawal: await ledger.balanceIn(tx, userId, 'withdrawal'),
    }
  }

  private async claim<T>(
    tx: Tx,
    actor: DeskActor,
    request: unknown,
    now: number,
  ): Promise<Claim<T>> {
    if (actor.idempotencyKey === undefined) return { kind: 'new' as const }
    return this.deps.idempotency.claim<T>(
      tx,
      -actor.staffId,
      actor.idempotencyKey,
      requestHash(request),
      now,
    )
  }

  private async complete(tx: Tx, actor: DeskActor, result: unknown) {
    if (actor.idempotencyKey !== undefined) {
      await this.deps.idempotency.complete(tx, -actor.staffId, actor.idempotencyKey, result)
    }
  }
}
