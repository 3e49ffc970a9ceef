import type { FastifyBaseLogger } from 'fastify'
import type { Recharge } from '@numisma/contracts/account'
import { recharge as rechargeRule } from '@numisma/domain/postings'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import type { LedgerService } from '../ledger/service'
import type { PaymentsRepository, RechargeRow } from './repository'
import { rechargeFee } from '@numisma/domain/fees'
import { prepayAttempt, prepayUsable } from './rules'
import type { PayNotice, WechatPayClient } from './wechat-pay'

export interface RechargeDeps {
  transact: Transact
  clock: Clock
  db: Tx
  payments: PaymentsRepository
  ledger: Pick<LedgerService, 'post'>
  wechat: WechatPayClient
  idempotency: Pick<IdempotencyStore, 'claim' | 'complete'>
  log?: FastifyBaseLogger
}

/** What the payer sees on the platform's payment sheet. */
const RECHARGE_BODY = '泉藏拍卖-保证金充值'

const statusOf = (value: string): Recharge['status'] =>
  value === 'paid' ? 'paid' : value === 'failed' ? 'failed' : 'pending'

/**
 * Recharging the deposit (保证金) through the messaging platform's pay (DESIGN §4, spec §7
 * `PATCH /user/recharge/@finance`): the user pays the amount and the channel's fee on top; the
 * deposit grows by the amount only when the platform's signed notice arrives, once.
 */
export class RechargeService {
  constructor(private readonly deps: RechargeDeps) {}

  async recharge(
    userId: number,
    amount: number,
    options: { idempotencyKey?: string | undefined; clientIp: string },
  ): Promise<Recharge> {
    const { transact, clock, idempotency, payments, wechat } = this.deps
    if (!wechat.configured) throw new AppError('PAY_CHANNEL_FAILED', { reason: 'not configured' })
    const key = options.idempotencyKey
    const rechargeId = await transact(async (tx) => {
      const now = clock.now()
      // Nothing to lock first: a recharge is a new row, never refused.
      if (key) {
        const claim = await idempotency.claim<{ rechargeId: number }>(
          tx,
          userId,
          key,
          requestHash({ recharge: amount }),
          now,
        )
        if (claim.kind === 'replay') return claim.result.rechargeId
      }
      const id = await payments.insertRecharge(tx, {
        userId,
        amount,
        fee: rechargeFee(amount),
        now,
      })
      if (key) await idempotency.complete(tx, userId, key, { rechargeId: id })
      return id
    })
    // After the commit, as for a payment: nothing stays locked while the platform answers.
    let row = await this.row(rechargeId)
    const now = clock.now()
    if (row.status === 'pending' && !(row.prepay_id && prepayUsable(row.prepay_at, now))) {
      // The first prepay, or a fresh one once the stored one's window closed (rules.ts).
      const attempt = prepayAttempt(
        { kind: 'recharge', id: rechargeId },
        { createdAt: row.created_at, prepayAt: row.prepay_id ? (row.prepay_at ?? 0) : null },
        now,
      )
      const prepayId = await wechat.prepay({
        outTradeNo: attempt.outTradeNo,
        body: RECHARGE_BODY,
        totalFee: row.amount + row.fee,
        clientIp: options.clientIp,
        expiresAt: attempt.expiresAt,
        payerId: row.user_id,
      })
      const previous = { prepayId: row.prepay_id }
      // When another request stored one first, that one is handed out (read back below).
      await transact((tx) =>
        payments.setRechargePrepay(
          tx,
          rechargeId,
          { prepayId, startedAt: attempt.startedAt },
          previous,
        ),
      )
      row = await this.row(rechargeId)
    }
    return this.toRecharge(row)
  }

  /** One of the caller's recharges (the recharge page polls it); another user's answers 404. */
  async view(userId: number, rechargeId: number): Promise<Recharge> {
    const row = await this.deps.payments.recharge(this.deps.db, rechargeId)
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', { rechargeId })
    return this.toRecharge(row)
  }

  /**
   * The platform's signed notice for a recharge: the deposit is credited once (a replayed notice
   * is acknowledged and moves nothing); an amount other than amount + fee is refused.
   */
  async settleNotice(
    rechargeId: number,
    notice: PayNotice,
  ): Promise<'settled' | 'replayed' | 'ignored'> {
    const { transact, clock, payments, ledger } = this.deps
    return transact(async (tx) => {
      const row = await payments.lockRecharge(tx, rechargeId)
      const now = clock.now()
      if (!row) throw new AppError('PAY_NOTICE_INVALID', { reason: 'unknown trade' })
      if (notice.totalFee !== row.amount + row.fee) {
        throw new AppError('PAY_NOTICE_INVALID', { reason: 'amount differs' })
      }
      if (!notice.paid) return 'ignored'
      if (row.status === 'paid') {
        if (row.transaction_id === notice.transactionId) return 'replayed'
        // A second attempt paid too (the platform's clock and ours either side of an attempt's
        // time_expire): the payer paid for a recharge again, so it is one — the deposit grows by
        // the amount and the fee is the channel's — recorded once under its transaction id.
        if (await payments.rechargePaidByTransaction(tx, notice.transactionId)) return 'replayed'
        const transferId = await ledger.post(
          tx,
          row.user_id,
          { kind: 'recharge', memo: `recharge ${rechargeId}: another attempt paid`, now },
          rechargeRule(row.amount, row.fee),
        )
        await payments.insertExtraRecharge(tx, {
          userId: row.user_id,
          amount: row.amount,
          fee: row.fee,
          transactionId: notice.transactionId,
          transferId,
          now,
        })
        this.deps.log?.warn(
          { rechargeId, transactionId: notice.transactionId },
          'a second attempt of a settled recharge was paid: credited as another recharge',
        )
        return 'settled'
      }
      const transferId = await ledger.post(
        tx,
        row.user_id,
        { kind: 'recharge', memo: `recharge ${rechargeId}`, now },
        rechargeRule(row.amount, row.fee),
      )
      await payments.markRechargePaid(tx, rechargeId, {
        transactionId: notice.transactionId,
        transferId,
        now,
      })
      return 'settled'
    })
  }

  private async row(rechargeId: number): Promise<RechargeRow> {
    const row = await this.deps.payments.recharge(this.deps.db, rechargeId)
    if (!row) throw new Error(`recharge ${rechargeId} vanished`)
    return row
  }

  /**
   * A pending recharge carries a fresh pay request for its prepay id (signing is local), while its
   * window is open; after that only a retry of the recharge asks the platform for a new one.
   */
  private toRecharge(row: RechargeRow): Recharge {
    const status = statusOf(row.status)
    const now = this.deps.clock.now()
    return {
      rechargeId: row.id,
      amount: row.amount,
      fee: row.fee,
      total: row.amount + row.fee,
      status,
      ...(status === 'pending' && row.prepay_id !== null && prepayUsable(row.prepay_at, now)
        ? { payRequest: this.deps.wechat.payRequest(row.prepay_id, now) }
        : {}),
    }
  }
}
