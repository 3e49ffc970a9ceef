import type { Forfeit } from '@numisma/contracts/account'
import { forfeitDeposit, type Leg } from '@numisma/domain/postings'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import { IntervalJob } from '../../platform/interval-job'
import { type Transact, transactor, type Tx } from '../../platform/transactions'
import { DEPOSIT_LINK, type NoticeWriter, noticeWriterFor, payLink } from '../notices/writer'
import { type DueOrder, OverdueRepository } from './overdue-repository'

/** At most this many orders marked per run, so a backlog never holds a run for long. */
const BATCH = 100
/** Pages of due orders one run looks through past those a waiting remittance notice keeps. */
const MAX_PAGES = 10

/**
 * Which of these orders a remittance notice still waiting for staff names (modules/finance's
 * `ordersAwaitingRemittance`, passed in through app.ts): their buyer sent the money and said so.
 */
export type AwaitingRemittance = (tx: Tx, orderIds: readonly number[]) => Promise<Set<number>>

/**
 * Stops the users' live proxies on open lots, in the caller's transaction (the bidding module's
 * `BiddingRepository.stopProxiesOf`, passed in through app.ts).
 */
export type StopProxies = (tx: Tx, userIds: readonly number[], now: number) => Promise<void>

/**
 * Which of these orders an open counter cash booking holds (modules/bookings'
 * `ordersBookedAtCounter`, through app.ts): its buyer pays cash at the counter on the booked day.
 */
export type BookedAtCounter = (tx: Tx, orderIds: readonly number[]) => Promise<Set<number>>

/**
 * Which of these orders wait for a messaging-app payment their buyer may still pay at the platform
 * (modules/payments' `ordersWithOpenWechatPayment`, through app.ts, the clock read at the call).
 */
export type PaymentOpen = (tx: Tx, orderIds: readonly number[]) => Promise<Set<number>>

export interface OverdueJobDeps {
  transact: Transact
  orders: Pick<OverdueRepository, 'lockDue' | 'markOverdue'>
  clock: Clock
  awaitingRemittance: AwaitingRemittance
  stopProxies: StopProxies
  /** Orders booked for cash at the counter are paid offline and left pending. */
  bookedAtCounter?: BookedAtCounter
  /** Tells each winner their lot went overdue, in the marking transaction. */
  notices: Pick<NoticeWriter, 'add'>
  log?: FastifyBaseLogger
}

/**
 * Marks won lots unpaid past their due time (3 days after the close, DESIGN §4) `overdue`: their
 * winner cannot bid until they pay (BiddingService refuses BIDDER_OVERDUE), their live proxies on
 * open lots stop in the same transaction (the engine bids for no one who may not bid), and staff
 * may take the deposit for the lot. An order a remittance notice still waiting for staff names is
 * left pending: its buyer has done their part; once the notice is rejected, the next run marks it.
 *
 * One batch per transaction: order rows first (`FOR UPDATE SKIP LOCKED` lets another instance, or
 * a payer or notice holding an order, pass), then the proxies' rows — nothing that locks proxies
 * waits for an order, so nothing can deadlock with it; the conditional update makes each order
 * overdue exactly once.
 */
export class OverdueJob {
  private readonly job = new IntervalJob(
    () => this.sweep(),
    (error: unknown) => this.deps.log?.error({ err: error }, 'overdue job failed'),
  )

  constructor(private readonly deps: OverdueJobDeps) {}

  /** The job over `database`; app.ts's `overdueJobFor` passes in what other modules provide. */
  static forDatabase(
    database: Database,
    clock: Clock,
    options: Pick<OverdueJobDeps, 'awaitingRemittance' | 'stopProxies' | 'bookedAtCounter' | 'log'>,
  ): OverdueJob {
    return new OverdueJob({
      transact: transactor(database),
      orders: new OverdueRepository(database.db, database.dialect),
      clock,
      notices: noticeWriterFor(database, clock),
      ...options,
    })
  }

  /** One bounded run; returns the ids of the orders this run made overdue. */
  sweep(): Promise<number[]> {
    const { orders, clock, awaitingRemittance, stopProxies } = this.deps
    return this.deps.transact(async (tx) => {
      const marked: { id: number; userId: number; title: string }[] = []
      let after: DueOrder | undefined
      for (let page = 0; page < MAX_PAGES && marked.length < BATCH; page++) {
        const limit = BATCH - marked.length
        const due = await orders.lockDue(tx, clock.now(), limit, after)
        const awaited = await awaitingRemittance(
          tx,
          due.map((o) => o.id),
        )
        const booked = this.deps.bookedAtCounter
          ? await this.deps.bookedAtCounter(
              tx,
              due.map((o) => o.id),
            )
          : new Set<number>()
        const ids = due.filter((o) => !awaited.has(o.id) && !booked.has(o.id)).map((o) => o.id)
        // After the locks: an order paid while we waited is no longer pending and is left alone.
        marked.push(...(await orders.markOverdue(tx, ids, clock.now())))
        if (due.length < limit) break
        after = due[due.length - 1]
      }
      await stopProxies(tx, [...new Set(marked.map((o) => o.userId))], clock.now())
      for (const o of marked) {
        await this.deps.notices.add(
          tx,
          o.userId,
          'order_overdue',
          { orderId: o.id, title: o.title },
          payLink(o.id),
        )
      }
      return marked.map((o) => o.id).sort((a, b) => a - b)
    })
  }

  start(intervalMs = 60_000): void {
    this.job.start(intervalMs)
  }

  stop(): Promise<void> {
    return this.job.stop()
  }
}

export interface ForfeitDeps {
  transact: Transact
  clock: Clock
  orders: Pick<OverdueRepository, 'lockOrder' | 'markForfeited'>
  ledger: {
    post(
      tx: Tx,
      userId: number,
      transfer: { kind: string; memo: string; now: number },
      legs: readonly Leg[],
    ): Promise<number>
  }
  /** The user's deposit under the lock bids take on their exposure (BiddingService.heldDeposit). */
  heldDeposit(tx: Tx, userId: number): Promise<{ deposit: number }>
  awaitingRemittance: AwaitingRemittance
  /** An order booked for cash at the counter is paid offline: not forfeited (ORDER_PAID_OFFLINE). */
  bookedAtCounter?: BookedAtCounter
  /** An order its winner may be paying on the messaging app's sheet: not forfeited meanwhile. */
  paymentOpen: PaymentOpen
  idempotency: IdempotencyStore
  /** Tells the winner what was taken, in the forfeit's transaction. */
  notices: Pick<NoticeWriter, 'add'>
}

/**
 * Staff take an overdue winner's deposit for the lot they did not pay for (DESIGN §4, Zhaoonline's
 * rule): min(hammer, deposit), once. The order is then closed as `cancelled` (the winner has lost
 * the lot, which staff may relist) and the transfer's memo names it — `forfeit order 42` is the
 * record of what was taken. A closed order no longer counts as exposure or keeps its winner from
 * bidding. An order a remittance notice waiting for staff covers is not forfeited
 * (ORDER_AWAITING_REMITTANCE) until staff have rejected the notice, nor one its winner may be
 * paying on the messaging app's sheet (ORDER_PAYMENT_PENDING) until that attempt closes.
 */
export class ForfeitService {
  constructor(private readonly deps: ForfeitDeps) {}

  forfeit(
    orderId: number,
    actor: { idempotencyOwner: number; idempotencyKey?: string },
  ): Promise<Forfeit> {
    const { orders, clock, ledger, idempotency } = this.deps
    return this.deps.transact(async (tx) => {
      const order = await orders.lockOrder(tx, orderId)
      if (!order || order.kind !== 'auction') throw new AppError('NOT_FOUND', { orderId })
      // The deposit under the exposure lock, after the order's: the order bids and payments take.
      const { deposit } = await this.deps.heldDeposit(tx, order.userId)
      const now = clock.now()
      const key = actor.idempotencyKey
      if (key !== undefined) {
        const claim = await idempotency.claim<Forfeit>(
          tx,
          actor.idempotencyOwner,
          key,
          requestHash({ forfeit: orderId }),
          now,
        )
        if (claim.kind === 'replay') return claim.result
      }
      // An auction order is cancelled only by a forfeit: a second one finds it decided.
      if (order.status === 'cancelled') throw new AppError('NOT_PENDING', { status: order.status })
      if (order.status !== 'overdue') {
        throw new AppError('ORDER_NOT_OVERDUE', { status: order.status })
      }
      // Its buyer says the money is on its way (a notice filed after the order went overdue):
      // staff decide the notice first. A notice is filed under this order's lock, so none slips by.
      if ((await this.deps.awaitingRemittance(tx, [orderId])).has(orderId)) {
        throw new AppError('ORDER_AWAITING_REMITTANCE', { orderId })
      }
      // Its buyer booked to pay cash at the counter: staff close or cancel the booking first.
      if (
        this.deps.bookedAtCounter &&
        (await this.deps.bookedAtCounter(tx, [orderId])).has(orderId)
      ) {
        throw new AppError('ORDER_PAID_OFFLINE', { orderId })
      }
      // Its winner may be paying it on the messaging app's sheet right now: taking the lot and the
      // deposit would leave them paying for nothing. Refused until that attempt closes (at most
      // PREPAY_WINDOW_MS); a payment attaches its orders under this order's lock.
      if ((await this.deps.paymentOpen(tx, [orderId])).has(orderId)) {
        throw new AppError('ORDER_PAYMENT_PENDING', { orderId })
      }
      if (!(await orders.markForfeited(tx, orderId, now))) throw new AppError('NOT_PENDING')
      const taken = Math.min(order.hammer, deposit)
      if (taken > 0) {
        await ledger.post(
          tx,
          order.userId,
          { kind: 'forfeit', memo: `forfeit order ${orderId}`, now },
          forfeitDeposit(taken),
        )
      }
      await this.deps.notices.add(
        tx,
        order.userId,
        'order_forfeited',
        { orderId, amount: taken },
        DEPOSIT_LINK,
      )
      const result: Forfeit = {
        orderId,
        userId: order.userId,
        hammer: order.hammer,
        taken,
        deposit: deposit - taken,
        status: 'cancelled',
      }
      if (key !== undefined) await idempotency.complete(tx, actor.idempotencyOwner, key, result)
      return result
    })
  }
}
