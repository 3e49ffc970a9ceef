import type {
  PayMethod,
  Payment,
  PayRequest,
  PayResult,
  WaitPayStatistics,
} from '@numisma/contracts/payment'
import { PAY_METHODS } from '@numisma/contracts/payment'
import { creditBalance, payOrders } from '@numisma/domain/postings'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import { ReplayMissed, replayOrVerify } from '../../platform/password-guard'
import type { Transact, Tx } from '../../platform/transactions'
import type { LedgerService } from '../ledger/service'
import type { OrderSettlement, PayableOrder, PayableOrders, PayPasswordCheck } from './ports'
import type { PaymentRow, PaymentsRepository } from './repository'
import {
  amountOf,
  chargesOf,
  noticeSettlement,
  PREPAY_MIN_MS,
  payableUntil,
  payRefusal,
  prepayAttempt,
  prepayUsable,
} from './rules'
import type { PayNotice, WechatPayClient } from './wechat-pay'

export interface PaymentDeps {
  transact: Transact
  clock: Clock
  /** Reads outside a transaction (the payment a page polls, previews). */
  db: Tx
  payments: PaymentsRepository
  orders: PayableOrders
  ledger: Pick<LedgerService, 'post' | 'lock' | 'balanceIn'>
  passwords: PayPasswordCheck
  wechat: WechatPayClient
  idempotency: Pick<IdempotencyStore, 'claim' | 'complete' | 'committed'>
  log?: FastifyBaseLogger
}

/** What an `Idempotency-Key` stores: the payment as decided (a pay request is made afresh). */
type PayOutcome = Omit<PayResult, 'payRequest'>

/** What the payer sees on the platform's payment sheet. */
const PAYMENT_BODY = '泉藏拍卖-订单支付'

const methodOf = (value: string): PayMethod => {
  const method = PAY_METHODS.find((m) => m === value)
  if (!method) throw new Error(`payment has an unknown method: ${value}`)
  return method
}

const statusOf = (value: string): Payment['status'] =>
  value === 'paid' ? 'paid' : value === 'failed' ? 'failed' : 'pending'

const sameIds = (a: readonly number[], b: readonly number[]): boolean => {
  const wanted = new Set(b)
  return a.length === b.length && a.every((id) => wanted.has(id))
}

/**
 * Paying orders (DESIGN §6, §9 "Money"): from the balance, with the messaging platform's JSAPI
 * pay, or by bank remittance. One write transaction per payment locks the named orders first
 * (then a coupon, then the ledger accounts), reads the clock after those locks and claims the
 * `Idempotency-Key` after them too, so a hundred taps pay once. Nothing slow or remote runs inside
 * it: the payment password is checked before, the platform is asked for its prepay id after the
 * commit.
 */
export class PaymentService implements OrderSettlement {
  constructor(private readonly deps: PaymentDeps) {}

  async pay(
    userId: number,
    request: PayRequest,
    options: { idempotencyKey?: string | undefined; clientIp: string },
  ): Promise<PayResult> {
    const { transact, clock, idempotency, wechat } = this.deps
    if (request.method === 'wechat' && !wechat.configured) {
      throw new AppError('PAY_CHANNEL_FAILED', { reason: 'not configured' })
    }
    const key = options.idempotencyKey
    // The password takes no part: a retry with the same key replays whatever was typed.
    const hash = requestHash({
      orderIds: request.orderIds,
      method: request.method,
      userCouponId: request.userCouponId ?? null,
    })
    const run = (replayOnly: boolean) =>
      transact(async (tx) => {
        const orders = await this.deps.orders.lock(tx, request.orderIds)
        const now = clock.now()
        if (key) {
          const claim = await idempotency.claim<PayOutcome>(tx, userId, key, hash, now)
          if (claim.kind === 'replay') return claim.result
        }
        // The key lapsed between the look and the claim: nothing was written; check the password.
        if (replayOnly) throw new ReplayMissed()
        const result = await this.decide(tx, userId, request, orders, now)
        if (key) await idempotency.complete(tx, userId, key, result)
        return result
      })
    const balance = request.method === 'balance'
    const outcome = await replayOrVerify({
      committed: async () =>
        balance && key !== undefined && (await idempotency.committed(userId, key)),
      verify: () =>
        balance ? this.deps.passwords.verify(userId, request.payPassword) : Promise.resolve(),
      run,
    })
    if (outcome.method !== 'wechat' || outcome.status !== 'PENDING') return outcome
    // After the commit: no row stays locked while the platform answers.
    const prepay = await this.ensurePrepay(outcome.paymentId, options.clientIp)
    // A replay after the notice arrived says so, rather than offer the payment sheet again.
    if (prepay.paid) return { ...outcome, status: 'PAID' }
    return { ...outcome, payRequest: wechat.payRequest(prepay.prepayId, clock.now()) }
  }

  /** The checks, the coupon, then what the method does; every refusal before the first write. */
  private async decide(
    tx: Tx,
    userId: number,
    request: PayRequest,
    locked: PayableOrder[],
    now: number,
  ): Promise<PayOutcome> {
    const byId = new Map(locked.map((o) => [o.id, o]))
    const refused = request.orderIds.filter((id) => payRefusal(byId.get(id), userId, now) !== null)
    if (refused.length > 0) throw new AppError('ORDER_NOT_PAYABLE', { orderIds: refused })
    let orders = request.orderIds.map((id) => byId.get(id)!)
    let couponApplied = false
    const { userCouponId } = request
    if (userCouponId !== undefined && !orders.some((o) => o.userCouponId === userCouponId)) {
      orders = await this.applyCoupon(tx, orders, userCouponId, now)
      couponApplied = true
    }
    const amount = amountOf(orders)
    const decided = { method: request.method, orderIds: request.orderIds, amount }

    if (request.method === 'balance' || amount === 0) {
      // Nothing to collect from outside (a coupon may leave nothing to pay): paid at once.
      const paymentId = await this.payFromBalance(tx, userId, orders, request.method, now)
      return { status: 'PAID', paymentId, ...decided }
    }
    // Refused before anything is written: the transaction (a coupon claimed) rolls back.
    if (request.method === 'wechat') this.refuseClosingSoon(orders, now)
    // Asked again for the same orders: the payment already under way, and its prepay id.
    const current = couponApplied ? undefined : await this.pendingFor(tx, orders, request.method)
    if (current) return { status: 'PENDING', paymentId: current.id, ...decided }
    const paymentId = await this.deps.payments.insertPayment(tx, {
      userId,
      method: request.method,
      amount,
      orderIds: request.orderIds,
      now,
    })
    await this.deps.orders.attach(tx, orders, paymentId, request.method, now)
    return { status: 'PENDING', paymentId, ...decided }
  }

  /**
   * A messaging-app trade closes with its orders (payableUntil); the platform refuses one that
   * closes in under PREPAY_MIN_MS, so a mall order that near its end is not payable this way:
   * ORDER_NOT_PAYABLE naming it, rather than a sheet that could pay an order already cancelled.
   */
  private refuseClosingSoon(orders: readonly PayableOrder[], now: number): void {
    const closing = orders.filter((o) => {
      const until = payableUntil([o])
      return until !== null && until - now < PREPAY_MIN_MS
    })
    if (closing.length > 0) {
      throw new AppError('ORDER_NOT_PAYABLE', { orderIds: closing.map((o) => o.id) })
    }
  }

  /**
   * A coupon chosen at payment goes to the first mall order of the payment (in the order named)
   * that has none and that it applies to, as getUserCoupons offers it per order.
   */
  private async applyCoupon(
    tx: Tx,
    orders: PayableOrder[],
    userCouponId: number,
    now: number,
  ): Promise<PayableOrder[]> {
    for (const [i, order] of orders.entries()) {
      if (order.kind !== 'mall' || order.userCouponId !== null) continue
      const applied = await this.deps.orders.applyCoupon(tx, order, userCouponId, now)
      if (applied) return orders.map((o, j) => (j === i ? applied : o))
    }
    throw new AppError('COUPON_INVALID', { userCouponId })
  }

  /** The pending payment every one of these orders waits for, if it is for exactly them. */
  private async pendingFor(
    tx: Tx,
    orders: readonly PayableOrder[],
    method: PayMethod,
  ): Promise<PaymentRow | undefined> {
    const paymentId = orders[0]?.paymentId ?? null
    if (paymentId === null || orders.some((o) => o.paymentId !== paymentId)) return undefined
    // Its notice locks these same orders first, so under our locks it cannot change.
    const payment = await this.deps.payments.payment(tx, paymentId)
    if (!payment || payment.status !== 'pending' || payment.method !== method) return undefined
    if (payment.amount !== amountOf(orders)) return undefined
    const ids = await this.deps.payments.orderIdsOf(tx, paymentId)
    return sameIds(
      ids,
      orders.map((o) => o.id),
    )
      ? payment
      : undefined
  }

  /**
   * Pays locked, payable orders from the user's balance as one payment (a new one, or the pending
   * one they wait for): BALANCE_LOW (nothing written) when it does not cover them.
   */
  private async payFromBalance(
    tx: Tx,
    userId: number,
    orders: readonly PayableOrder[],
    method: PayMethod,
    now: number,
    pendingId?: number,
  ): Promise<number> {
    const { payments, ledger } = this.deps
    const amount = amountOf(orders)
    const paymentId =
      pendingId ??
      (await payments.insertPayment(tx, {
        userId,
        method,
        amount,
        orderIds: orders.map((o) => o.id),
        now,
      }))
    // Orders (locked), then their coupons, then the balance: the order every payment locks in.
    await this.deps.orders.markPaid(tx, orders, paymentId, method, now)
    let transferId: number | null = null
    if (amount > 0) {
      await ledger.lock(tx, userId, ['balance'])
      const balance = await ledger.balanceIn(tx, userId, 'balance')
      if (balance < amount) throw new AppError('BALANCE_LOW', { balance, amount })
      transferId = await ledger.post(
        tx,
        userId,
        { kind: 'payment', memo: `payment ${paymentId}`, now },
        payOrders(chargesOf(orders), 'balance'),
      )
    }
    await payments.markPaymentPaid(tx, paymentId, { transactionId: null, transferId, now })
    return paymentId
  }

  /**
   * The platform's prepay id for a messaging-app payment, good to hand out: the stored one while
   * its attempt's window is open (a retry, a second tap), else a fresh one — the platform lets a
   * prepay id lapse after two hours, and closes each attempt's trade (`time_expire`) before that,
   * so a later attempt has its own trade number (rules.ts prepayAttempt). Runs outside any
   * transaction; when two ask at once, the first stored wins and both hand out that one.
   */
  private async ensurePrepay(
    paymentId: number,
    clientIp: string,
  ): Promise<{ paid: true } | { paid: false; prepayId: string }> {
    const { payments, db, transact, wechat, clock } = this.deps
    const payment = await payments.payment(db, paymentId)
    if (!payment) throw new Error(`payment ${paymentId} vanished`)
    if (payment.status === 'paid') return { paid: true }
    // A replayed key reaches here without decide's checks: the orders must still wait for this
    // payment and be payable, or the sheet would take money for nothing (then credited back).
    const orders = await this.deps.orders.read(await payments.orderIdsOf(db, paymentId))
    const now = clock.now()
    const gone = orders
      .filter((o) => o.paymentId !== paymentId || payRefusal(o, payment.user_id, now) !== null)
      .map((o) => o.id)
    if (gone.length > 0) throw new AppError('ORDER_NOT_PAYABLE', { orderIds: gone })
    const closeBy = payableUntil(orders)
    if (
      payment.prepay_id &&
      prepayUsable(payment.prepay_at, now) &&
      (closeBy === null || now < closeBy)
    ) {
      return { paid: false, prepayId: payment.prepay_id }
    }
    const attempt = prepayAttempt(
      { kind: 'payment', id: paymentId },
      // A prepay stored without its start (before migration 0010) counts as long lapsed.
      {
        createdAt: payment.created_at,
        prepayAt: payment.prepay_id ? (payment.prepay_at ?? 0) : null,
      },
      now,
      closeBy,
    )
    if (attempt.expiresAt - now < PREPAY_MIN_MS) this.refuseClosingSoon(orders, now)
    const prepayId = await wechat.prepay({
      outTradeNo: attempt.outTradeNo,
      body: PAYMENT_BODY,
      totalFee: payment.amount,
      clientIp,
      expiresAt: attempt.expiresAt,
      payerId: payment.user_id,
    })
    const kept = await transact((tx) =>
      payments.setPaymentPrepay(
        tx,
        paymentId,
        { prepayId, startedAt: attempt.startedAt },
        { prepayId: payment.prepay_id },
      ),
    )
    if (kept) return { paid: false, prepayId }
    const stored = await payments.payment(db, paymentId)
    if (stored?.status === 'paid') return { paid: true }
    return { paid: false, prepayId: stored?.prepay_id ?? prepayId }
  }

  /**
   * The platform's signed notice for payment `paymentId` (already checked for its sign and
   * merchant). Settles it once: the orders still waiting for it are paid with the money from
   * outside (clearing), the rest of the money goes to the buyer's balance. A notice for a payment
   * already settled by this same transaction is a replay: acknowledged, nothing moves; one by
   * another transaction (a second attempt paid) is credited to the balance once (creditAgain). An
   * amount other than the payment's is refused.
   */
  async settleNotice(
    paymentId: number,
    notice: PayNotice,
  ): Promise<'settled' | 'replayed' | 'ignored'> {
    const { payments, db, transact, clock, ledger } = this.deps
    const known = await payments.payment(db, paymentId)
    if (!known || known.method !== 'wechat') {
      throw new AppError('PAY_NOTICE_INVALID', { reason: 'unknown trade' })
    }
    if (notice.totalFee !== known.amount) {
      throw new AppError('PAY_NOTICE_INVALID', { reason: 'amount differs' })
    }
    // A failed payment at the platform moves nothing; the buyer may try again.
    if (!notice.paid) return 'ignored'
    const orderIds = await payments.orderIdsOf(db, paymentId)
    return transact(async (tx) => {
      // The orders first, as every payment locks them, then the payment.
      const orders = await this.deps.orders.lock(tx, orderIds)
      const payment = await payments.lockPayment(tx, paymentId)
      const now = clock.now()
      if (!payment) throw new AppError('PAY_NOTICE_INVALID', { reason: 'unknown trade' })
      if (payment.status === 'paid') {
        if (payment.transaction_id === notice.transactionId) return 'replayed'
        return this.creditAgain(tx, payment, notice, now)
      }
      const { pay, credit } = noticeSettlement(
        { id: payment.id, userId: payment.user_id, amount: payment.amount },
        orders,
      )
      let transferId: number | null = null
      if (pay.length > 0) {
        await this.deps.orders.markPaid(tx, pay, paymentId, 'wechat', now)
        transferId = await ledger.post(
          tx,
          payment.user_id,
          { kind: 'payment', memo: `payment ${paymentId}`, now },
          payOrders(chargesOf(pay), 'clearing'),
        )
      }
      if (credit > 0) {
        const creditId = await ledger.post(
          tx,
          payment.user_id,
          { kind: 'payment_credit', memo: `payment ${paymentId}: orders no longer payable`, now },
          creditBalance(credit),
        )
        transferId ??= creditId
        this.deps.log?.warn(
          { paymentId, credit, paid: pay.map((o) => o.id) },
          'payment notice after its orders changed: money credited to the balance',
        )
      }
      await payments.markPaymentPaid(tx, paymentId, {
        transactionId: notice.transactionId,
        transferId,
        now,
      })
      return 'settled'
    })
  }

  /**
   * The platform took the money of a second attempt of a payment already settled (its clock and
   * ours either side of an attempt's time_expire): the orders are paid, so all of it goes to the
   * buyer's balance, as noticeSettlement credits money for orders no longer payable. Once per
   * transaction id: it is recorded as a paid payment of no orders under that id (unique), and a
   * replay of the notice finds it. Runs under the settled payment's lock, so two of these serialise.
   */
  private async creditAgain(
    tx: Tx,
    payment: PaymentRow,
    notice: PayNotice,
    now: number,
  ): Promise<'settled' | 'replayed'> {
    const { payments, ledger } = this.deps
    if (await payments.paidByTransaction(tx, notice.transactionId)) return 'replayed'
    const transferId = await ledger.post(
      tx,
      payment.user_id,
      { kind: 'payment_credit', memo: `payment ${payment.id}: paid again`, now },
      creditBalance(payment.amount),
    )
    await payments.insertExtraSettlement(tx, {
      userId: payment.user_id,
      amount: payment.amount,
      transactionId: notice.transactionId,
      transferId,
      now,
    })
    this.deps.log?.warn(
      { paymentId: payment.id, transactionId: notice.transactionId },
      'a settled payment was paid again at the platform: money credited to the balance',
    )
    return 'settled'
  }

  /** OrderSettlement (modules/finance confirms a remittance): see ports.ts. */
  async settleFromBalance(
    tx: Tx,
    userId: number,
    orderIds: readonly number[],
    now: number,
  ): Promise<number | null> {
    const locked = await this.deps.orders.lock(tx, orderIds)
    // The money arrived by bank: a remittance order is not judged by the mall's 30 minutes.
    const payable = locked.filter(
      (o) => payRefusal({ ...o, payMethod: 'remittance' }, userId, now) === null,
    )
    if (payable.length === 0) return null
    await this.deps.ledger.lock(tx, userId, ['balance'])
    if ((await this.deps.ledger.balanceIn(tx, userId, 'balance')) < amountOf(payable)) return null
    // The remittance payment chosen at doPay for exactly these orders is the one that settles.
    const chosen = await this.pendingFor(tx, payable, 'remittance')
    return this.payFromBalance(tx, userId, payable, 'remittance', now, chosen?.id)
  }

  /** `GET /user/3_3/pay/waitPayStatistics`: what paying the caller's orders comes to. */
  async statistics(userId: number, orderIds: readonly number[]): Promise<WaitPayStatistics> {
    const orders = await this.deps.orders.read(orderIds)
    const byId = new Map(orders.map((o) => [o.id, o]))
    const now = this.deps.clock.now()
    const refused = orderIds.filter((id) => payRefusal(byId.get(id), userId, now) !== null)
    if (refused.length > 0) throw new AppError('ORDER_NOT_PAYABLE', { orderIds: refused })
    const total = amountOf(orders)
    const balance = await this.deps.ledger.balanceIn(this.deps.db, userId, 'balance')
    return {
      count: orders.length,
      goods: orders.reduce((sum, o) => sum + o.goods, 0),
      fee: orders.reduce((sum, o) => sum + o.fee, 0),
      discount: orders.reduce((sum, o) => sum + o.discount, 0),
      total,
      balance,
      balanceCovers: balance >= total,
    }
  }

  /** `GET /user/payments/:id`: one of the caller's payments; another user's answers 404. */
  async payment(userId: number, paymentId: number): Promise<Payment> {
    const { payments, db } = this.deps
    const row = await payments.payment(db, paymentId)
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', { paymentId })
    const status = statusOf(row.status)
    const credited = status === 'paid' ? row.amount - (await payments.paidTotalOf(db, row.id)) : 0
    return {
      id: row.id,
      method: methodOf(row.method),
      status,
      amount: row.amount,
      orderIds: await payments.orderIdsOf(db, row.id),
      createdAt: new Date(row.created_at).toISOString(),
      paidAt: row.paid_at === null ? null : new Date(row.paid_at).toISOString(),
      credited: Math.max(0, credited),
    }
  }
}
