import type { Dialect } from '../../platform/db'
import type { Tx } from '../../platform/transactions'

export interface PaymentRow {
  id: number
  user_id: number
  method: string
  status: string
  amount: number
  prepay_id: string | null
  transaction_id: string | null
  transfer_id: number | null
  created_at: number
  paid_at: number | null
  /** When the prepay's attempt started (rules.ts prepayAttempt); its window runs from here. */
  prepay_at: number | null
}

export interface RechargeRow {
  id: number
  user_id: number
  amount: number
  fee: number
  status: string
  prepay_id: string | null
  transaction_id: string | null
  transfer_id: number | null
  created_at: number
  paid_at: number | null
  /** When the prepay's attempt started (rules.ts prepayAttempt); its window runs from here. */
  prepay_at: number | null
}

export interface Settled {
  transactionId: string | null
  transferId: number | null
  now: number
}

/**
 * The SQL of payments (with the orders each is for) and recharges. Every method takes `tx`: the
 * writes run in the caller's transaction, the reads on whatever the caller passes (a transaction
 * or the database). State changes are conditional on the row still being pending, so a notice
 * or a payment is settled once however many arrive.
 */
export class PaymentsRepository {
  constructor(private readonly dialect: Dialect) {}

  async insertPayment(
    tx: Tx,
    payment: {
      userId: number
      method: string
      amount: number
      orderIds: readonly number[]
      now: number
    },
  ): Promise<number> {
    const { id } = await tx
      .insertInto('payments')
      .values({
        user_id: payment.userId,
        method: payment.method,
        status: 'pending',
        amount: payment.amount,
        prepay_id: null,
        transaction_id: null,
        transfer_id: null,
        created_at: payment.now,
        paid_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('payment_orders')
      .values(payment.orderIds.map((orderId) => ({ payment_id: id, order_id: orderId })))
      .execute()
    return id
  }

  payment(tx: Tx, paymentId: number): Promise<PaymentRow | undefined> {
    return tx.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst()
  }

  /** Reads a payment for update (its notice and a new payment of its orders serialise on it). */
  lockPayment(tx: Tx, paymentId: number): Promise<PaymentRow | undefined> {
    let query = tx.selectFrom('payments').selectAll().where('id', '=', paymentId)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  async orderIdsOf(tx: Tx, paymentId: number): Promise<number[]> {
    const rows = await tx
      .selectFrom('payment_orders')
      .select('order_id')
      .where('payment_id', '=', paymentId)
      .orderBy('order_id')
      .execute()
    return rows.map((r) => r.order_id)
  }

  /** What of the payment's orders it paid: the totals of those it paid (they point at it). */
  async paidTotalOf(tx: Tx, paymentId: number): Promise<number> {
    const rows = await tx
      .selectFrom('payment_orders')
      .innerJoin('orders', 'orders.id', 'payment_orders.order_id')
      .select('orders.total')
      .where('payment_orders.payment_id', '=', paymentId)
      .where('orders.payment_id', '=', paymentId)
      .where('orders.paid_at', 'is not', null)
      .execute()
    return rows.reduce((sum, r) => sum + r.total, 0)
  }

  /**
   * Keeps the platform's prepay id and when its attempt started, unless another request stored one
   * since `previous` was read (then that one stands: the caller reads it back). False when not kept.
   */
  async setPaymentPrepay(
    tx: Tx,
    paymentId: number,
    prepay: { prepayId: string; startedAt: number },
    previous: { prepayId: string | null },
  ): Promise<boolean> {
    const updated = await tx
      .updateTable('payments')
      .set({ prepay_id: prepay.prepayId, prepay_at: prepay.startedAt })
      .where('id', '=', paymentId)
      .where((eb) =>
        previous.prepayId === null
          ? eb('prepay_id', 'is', null)
          : eb('prepay_id', '=', previous.prepayId),
      )
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  async markPaymentPaid(tx: Tx, paymentId: number, settled: Settled): Promise<boolean> {
    const updated = await tx
      .updateTable('payments')
      .set({
        status: 'paid',
        transaction_id: settled.transactionId,
        transfer_id: settled.transferId,
        paid_at: settled.now,
      })
      .where('id', '=', paymentId)
      .where('status', '!=', 'paid')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** Whether a paid payment carries this platform transaction id (each is settled once). */
  paidByTransaction(tx: Tx, transactionId: string): Promise<boolean> {
    return carriesTransaction(tx, 'payments', transactionId)
  }

  /**
   * Records money a second paid attempt of a settled payment brought in: a paid messaging-app
   * payment of no orders under its transaction id (unique: once), the credit's transfer with it.
   */
  async insertExtraSettlement(
    tx: Tx,
    extra: {
      userId: number
      amount: number
      transactionId: string
      transferId: number
      now: number
    },
  ): Promise<number> {
    const { id } = await tx
      .insertInto('payments')
      .values({
        user_id: extra.userId,
        method: 'wechat',
        status: 'paid',
        amount: extra.amount,
        prepay_id: null,
        transaction_id: extra.transactionId,
        transfer_id: extra.transferId,
        created_at: extra.now,
        paid_at: extra.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async insertRecharge(
    tx: Tx,
    recharge: { userId: number; amount: number; fee: number; now: number },
  ): Promise<number> {
    const { id } = await tx
      .insertInto('recharges')
      .values({
        user_id: recharge.userId,
        amount: recharge.amount,
        fee: recharge.fee,
        status: 'pending',
        prepay_id: null,
        transaction_id: null,
        transfer_id: null,
        created_at: recharge.now,
        paid_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  recharge(tx: Tx, rechargeId: number): Promise<RechargeRow | undefined> {
    return tx.selectFrom('recharges').selectAll().where('id', '=', rechargeId).executeTakeFirst()
  }

  lockRecharge(tx: Tx, rechargeId: number): Promise<RechargeRow | undefined> {
    let query = tx.selectFrom('recharges').selectAll().where('id', '=', rechargeId)
    if (this.dialect === 'postgres') query = query.forUpdate()
    return query.executeTakeFirst()
  }

  /** As setPaymentPrepay, for a recharge. */
  async setRechargePrepay(
    tx: Tx,
    rechargeId: number,
    prepay: { prepayId: string; startedAt: number },
    previous: { prepayId: string | null },
  ): Promise<boolean> {
    const updated = await tx
      .updateTable('recharges')
      .set({ prepay_id: prepay.prepayId, prepay_at: prepay.startedAt })
      .where('id', '=', rechargeId)
      .where((eb) =>
        previous.prepayId === null
          ? eb('prepay_id', 'is', null)
          : eb('prepay_id', '=', previous.prepayId),
      )
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** Whether a paid recharge carries this platform transaction id (each is settled once). */
  rechargePaidByTransaction(tx: Tx, transactionId: string): Promise<boolean> {
    return carriesTransaction(tx, 'recharges', transactionId)
  }

  /**
   * Records a second paid attempt of a recharge already settled: a paid recharge of the same
   * amount and fee under its own transaction id (unique: once), with the transfer that credited it.
   */
  async insertExtraRecharge(
    tx: Tx,
    extra: {
      userId: number
      amount: number
      fee: number
      transactionId: string
      transferId: number
      now: number
    },
  ): Promise<number> {
    const { id } = await tx
      .insertInto('recharges')
      .values({
        user_id: extra.userId,
        amount: extra.amount,
        fee: extra.fee,
        status: 'paid',
        prepay_id: null,
        transaction_id: extra.transactionId,
        transfer_id: extra.transferId,
        created_at: extra.now,
        paid_at: extra.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return id
  }

  async markRechargePaid(tx: Tx, rechargeId: number, settled: Settled): Promise<boolean> {
    const updated = await tx
      .updateTable('recharges')
      .set({
        status: 'paid',
        transaction_id: settled.transactionId,
        transfer_id: settled.transferId,
        paid_at: settled.now,
      })
      .where('id', '=', rechargeId)
      .where('status', '!=', 'paid')
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }
}

/** Whether a row of `table` carries this platform transaction id (unique there). */
async function carriesTransaction(
  tx: Tx,
  table: 'payments' | 'recharges',
  transactionId: string,
): Promise<boolean> {
  const row = await tx
    .selectFrom(table)
    .select('id')
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst()
  return row !== undefined
}
