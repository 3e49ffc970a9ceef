import {
  type CompanyBank,
  REMITTED_ON_MAX_DAYS_BACK,
  type Remittance,
  type RemittanceConfirm,
  type RemittanceRequest,
  type StaffRemittance,
  type StaffWithdrawal,
  type Withdrawal,
  type WithdrawalRequest,
} from '@numisma/contracts/account'
import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'
import type { AccountKind } from '@numisma/domain/ledger'
import {
  creditBalance,
  type Leg,
  payWithdrawal,
  refuseWithdrawal,
  reserveWithdrawal,
} from '@numisma/domain/postings'
import { depositInUse } from '@numisma/domain/quota'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { type IdempotencyStore, requestHash } from '../../platform/idempotency'
import { ReplayMissed, replayOrVerify } from '../../platform/password-guard'
import type { Transact, Tx } from '../../platform/transactions'
import type { OrderSettlement, PayPasswordCheck } from '../payments/ports'
import { payRefusal } from '../payments/rules'
import { type NoticeWriter, REMITTANCES_LINK, WITHDRAWALS_LINK } from '../notices/writer'
import {
  toCompanyBank,
  toRemittance,
  toStaffRemittance,
  toStaffWithdrawal,
  toWithdrawal,
} from './mappers'
import { remittancePayable } from './awaiting-remittance'
import type { ReceiptDecoder } from './receipt'
import type { BankingRepository } from './repository'

/** What the ledger module does for this one (LedgerService). */
export interface BankingLedger {
  post(
    tx: Tx,
    userId: number,
    transfer: { kind: string; memo: string; now: number },
    legs: readonly Leg[],
  ): Promise<number>
  balanceIn(tx: Tx, userId: number, kind: AccountKind): Promise<number>
  /** Locks the user's accounts of these kinds for the rest of the transaction. */
  lock(tx: Tx, userId: number, kinds: readonly AccountKind[]): Promise<void>
}

/**
 * The user's deposit and exposure read under the lock a bid takes on that user's exposure
 * (BiddingService.heldDeposit): deposit taken away here and a bid can never count on the same fen.
 */
export type HeldDeposit = (
  tx: Tx,
  userId: number,
) => Promise<{ deposit: number; exposure: number; multiplier: number }>

export interface BankingDeps {
  transact: Transact
  clock: Clock
  banking: Pick<BankingRepository, keyof BankingRepository>
  ledger: BankingLedger
  settlement: OrderSettlement
  heldDeposit: HeldDeposit
  receipts: ReceiptDecoder
  idempotency: IdempotencyStore
  /** The payment password (modules/account), asked before money leaves for a bank account. */
  passwords: PayPasswordCheck
  /** Tells the user of staff's decisions, in the decision's transaction. */
  notices: NoticeWriter
}

/** Who asks: a user (their own id owns their idempotency keys) or staff (negative ids, DESIGN §2). */
export interface Actor {
  idempotencyOwner: number
  idempotencyKey?: string
}

type Claimed<T> = { kind: 'replay'; result: T } | { kind: 'new' }

const unique = (ids: readonly number[]) => [...new Set(ids)]

const DAY_MS = 86_400_000

/**
 * Why a transfer date cannot be right, or null: China-time dates, from REMITTED_ON_MAX_DAYS_BACK
 * days ago to tomorrow (a transfer made late at night may be dated by the bank's next day).
 */
export function remittedOnRefusal(remittedOn: string, now: number): string | null {
  const chinaDay = (ms: number) => new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 10)
  const latest = chinaDay(now + DAY_MS)
  const earliest = chinaDay(now - REMITTED_ON_MAX_DAYS_BACK * DAY_MS)
  if (remittedOn > latest) return `must not be after ${latest}`
  if (remittedOn < earliest) return `must not be before ${earliest}`
  return null
}

/**
 * Money in by bank transfer and money out to a bank account (DESIGN §6, §9 "Money"; issue 9):
 * the company's accounts, remittance notices and their staff decisions, withdrawals reserved at
 * once and then paid or refused by staff. Every movement is one ledger transfer of a posting rule
 * inside the use case's one write transaction; every decision flips a status conditionally under
 * the row's lock, so it happens once however many staff press the button.
 */
export class BankingService {
  constructor(private readonly deps: BankingDeps) {}

  async companyBanks(): Promise<CompanyBank[]> {
    return (await this.deps.banking.companyBanks()).map(toCompanyBank)
  }

  // Remittances.

  /**
   * The user reports a bank transfer. The orders it names must be the caller's and payable now by
   * the rule doPay applies (payments/rules.ts payRefusal: unpaid, and a mall order not past its 30
   * minutes unless held for remittance) — ORDER_NOT_PAYABLE naming the others, so a notice never
   * revives an order that has lapsed. Those its amount covers (remittancePayable) then wait for the
   * money rather than expiring; a notice covering none is still accepted (the money may arrive,
   * and is credited when staff confirm it) but holds nothing. The receipt is decoded and
   * re-encoded before the transaction (it is slow, and needs no lock).
   */
  async reportRemittance(
    userId: number,
    request: RemittanceRequest,
    idempotencyKey?: string,
  ): Promise<Remittance> {
    const { banking, transact, clock } = this.deps
    const receipt =
      request.receipt === undefined ? null : await this.deps.receipts.normalise(request.receipt)
    const orderIds = unique(request.orderIds)
    const hash = requestHash({ ...request, orderIds })
    return transact(async (tx) => {
      const orders = await banking.lockOrdersOf(tx, userId, orderIds)
      const now = clock.now()
      const claim = await this.claim<Remittance>(tx, userId, idempotencyKey, hash, now)
      if (claim.kind === 'replay') return claim.result
      if (!(await banking.activeCompanyBank(tx, request.companyBankId))) {
        throw new AppError('VALIDATION_FAILED', { companyBankId: request.companyBankId })
      }
      const late = remittedOnRefusal(request.remittedOn, now)
      if (late) {
        throw new AppError('VALIDATION_FAILED', {
          fields: [{ field: 'body.remittedOn', message: late }],
        })
      }
      const payable = new Set(
        orders
          .filter(
            (o) =>
              payRefusal(
                {
                  userId,
                  kind: o.kind,
                  status: o.status,
                  dueAt: o.due_at,
                  payMethod: o.pay_method,
                },
                userId,
                now,
              ) === null,
          )
          .map((o) => o.id),
      )
      const refused = orderIds.filter((id) => !payable.has(id))
      if (refused.length > 0) throw new AppError('ORDER_NOT_PAYABLE', { orderIds: refused })
      const id = await banking.insertRemittance(tx, {
        userId,
        companyBankId: request.companyBankId,
        amount: request.amount,
        payerName: request.payerName,
        payerBank: request.payerBank,
        remittedOn: request.remittedOn,
        orderIds,
        receipt: receipt === null ? null : receipt.toString('base64'),
        now,
      })
      // Only what the amount covers waits for the money (ordersAwaitingRemittance).
      await banking.setPayMethod(tx, remittancePayable(orders, request.amount), 'remittance')
      const result = toRemittance(await this.remittanceIn(tx, id))
      await this.complete(tx, userId, idempotencyKey, result)
      return result
    })
  }

  async remittances(userId: number): Promise<Remittance[]> {
    return (await this.deps.banking.remittances({ userId })).map(toRemittance)
  }

  async staffRemittances(status?: Remittance['status']): Promise<StaffRemittance[]> {
    return (await this.deps.banking.remittances({ status })).map(toStaffRemittance)
  }

  /** The receipt's JPEG for its owner, or for staff (`userId` null); another user's is a 404. */
  async receipt(remittanceId: number, userId: number | null): Promise<Buffer> {
    const row = await this.deps.banking.receipt(remittanceId)
    if (!row || row.receipt === null || (userId !== null && row.userId !== userId)) {
      throw new AppError('NOT_FOUND', { remittanceId })
    }
    return Buffer.from(row.receipt, 'base64')
  }

  /**
   * Staff saw the money arrive: what arrived (`amountReceived`, the notice's amount unless staff
   * say otherwise) goes onto the user's balance, then the orders the notice names are paid out of
   * that money only (remittancePayable: in id order while it covers them, as one payment) — all in
   * one transaction. Whatever sat on the balance before is never spent without the user's payment
   * password; orders the money does not reach stay unpaid, what the orders do not take stays.
   */
  async confirmRemittance(
    remittanceId: number,
    decision: RemittanceConfirm,
    actor: Actor,
  ): Promise<StaffRemittance> {
    const { banking, transact, clock, ledger } = this.deps
    const { note } = decision
    return transact(async (tx) => {
      const notice = await banking.lockRemittance(tx, remittanceId)
      if (!notice) throw new AppError('NOT_FOUND', { remittanceId })
      const orderIds = JSON.parse(notice.order_ids) as number[]
      // The orders before the balance, the order paying takes them in.
      const orders = await banking.lockOrdersOf(tx, notice.user_id, orderIds)
      const now = clock.now()
      const claim = await this.claim<StaffRemittance>(
        tx,
        actor.idempotencyOwner,
        actor.idempotencyKey,
        requestHash({ confirm: remittanceId, note, amountReceived: decision.amountReceived }),
        now,
      )
      if (claim.kind === 'replay') return claim.result
      if (notice.status !== 'submitted')
        throw new AppError('NOT_PENDING', { status: notice.status })
      const received = decision.amountReceived ?? notice.amount
      const transferId = await ledger.post(
        tx,
        notice.user_id,
        { kind: 'remittance', memo: `remittance ${remittanceId}`, now },
        creditBalance(received),
      )
      const pay = remittancePayable(orders, received)
      if (pay.length > 0) {
        await this.deps.settlement.settleFromBalance(tx, notice.user_id, pay, now)
      }
      if (
        !(await banking.decideRemittance(tx, remittanceId, {
          status: 'confirmed',
          note: note ?? null,
          transferId,
          amountReceived: received,
          now,
        }))
      ) {
        throw new AppError('NOT_PENDING')
      }
      await this.deps.notices.add(
        tx,
        notice.user_id,
        'remittance_confirmed',
        { remittanceId, amount: received },
        REMITTANCES_LINK,
      )
      const result = toStaffRemittance(await this.remittanceIn(tx, remittanceId))
      await this.complete(tx, actor.idempotencyOwner, actor.idempotencyKey, result)
      return result
    })
  }

  /**
   * Staff found no such money: nothing moves. The notice's orders go back on their clock unless
   * another notice still waiting names them.
   */
  async rejectRemittance(
    remittanceId: number,
    note: string | undefined,
    actor: Actor,
  ): Promise<StaffRemittance> {
    const { banking, transact, clock } = this.deps
    return transact(async (tx) => {
      const notice = await banking.lockRemittance(tx, remittanceId)
      if (!notice) throw new AppError('NOT_FOUND', { remittanceId })
      const now = clock.now()
      const claim = await this.claim<StaffRemittance>(
        tx,
        actor.idempotencyOwner,
        actor.idempotencyKey,
        requestHash({ reject: remittanceId, note }),
        now,
      )
      if (claim.kind === 'replay') return claim.result
      if (notice.status !== 'submitted')
        throw new AppError('NOT_PENDING', { status: notice.status })
      if (
        !(await banking.decideRemittance(tx, remittanceId, {
          status: 'rejected',
          note: note ?? null,
          transferId: null,
          amountReceived: null,
          now,
        }))
      ) {
        throw new AppError('NOT_PENDING')
      }
      await this.deps.notices.add(
        tx,
        notice.user_id,
        'remittance_rejected',
        { remittanceId, ...(note ? { note } : {}) },
        REMITTANCES_LINK,
      )
      const stillAwaited = new Set(
        await banking.submittedRemittanceOrderIds(tx, notice.user_id, remittanceId),
      )
      const orderIds = (JSON.parse(notice.order_ids) as number[]).filter(
        (id) => !stillAwaited.has(id),
      )
      await banking.setPayMethod(tx, orderIds, null)
      const result = toStaffRemittance(await this.remittanceIn(tx, remittanceId))
      await this.complete(tx, actor.idempotencyOwner, actor.idempotencyKey, result)
      return result
    })
  }

  // Withdrawals.

  /**
   * Reserves the amount at once (it leaves the balance or the deposit for the user's withdrawal
   * account, out of reach of bids and payments). From the balance: all of it may go (BALANCE_LOW
   * beyond). From the deposit: only what exposure leaves free, judged under the lock bids take on
   * the user's exposure, and nothing while a won lot is overdue — the deposit answers for it
   * (DEPOSIT_IN_USE). The payment password is checked first, as for paying from the balance.
   */
  async requestWithdrawal(
    userId: number,
    request: WithdrawalRequest,
    idempotencyKey?: string,
  ): Promise<Withdrawal> {
    const { payPassword, ...withdrawal } = request
    // The password takes no part: a retry with the same key replays whatever was typed.
    const hash = requestHash(withdrawal)
    const run = (replayOnly: boolean) =>
      this.reserve(userId, withdrawal, hash, idempotencyKey, replayOnly)
    // As a payment's: a retry of a withdrawal already reserved replays without the password.
    return replayOrVerify({
      committed: async () =>
        idempotencyKey !== undefined &&
        (await this.deps.idempotency.committed(userId, idempotencyKey)),
      verify: () => this.deps.passwords.verify(userId, payPassword),
      run,
    })
  }

  private reserve(
    userId: number,
    request: Omit<WithdrawalRequest, 'payPassword'>,
    hash: string,
    idempotencyKey: string | undefined,
    replayOnly: boolean,
  ): Promise<Withdrawal> {
    const { banking, transact, clock, ledger } = this.deps
    return transact(async (tx) => {
      // The source and withdrawal accounts first (in id order, as transfers take them), then, for
      // the deposit, the exposure under the bids' lock: nothing can spend the money meanwhile.
      await ledger.lock(tx, userId, [request.source, 'withdrawal'])
      const held = request.source === 'deposit' ? await this.deps.heldDeposit(tx, userId) : null
      const now = clock.now()
      const claim = await this.claim<Withdrawal>(tx, userId, idempotencyKey, hash, now)
      if (claim.kind === 'replay') return claim.result
      // The key lapsed between the look and the claim: nothing was written; check the password.
      if (replayOnly) throw new ReplayMissed()
      if (held) {
        const inUse = depositInUse(held, request.amount)
        if (inUse) throw new AppError('DEPOSIT_IN_USE', { ...inUse })
      } else {
        const balance = await ledger.balanceIn(tx, userId, 'balance')
        if (request.amount > balance) throw new AppError('BALANCE_LOW', { balance })
      }
      const id = await banking.insertWithdrawal(tx, { ...request, userId, now })
      await ledger.post(
        tx,
        userId,
        { kind: 'withdrawal', memo: `withdrawal ${id}`, now },
        reserveWithdrawal(request.amount, request.source),
      )
      const result = toWithdrawal(await this.withdrawalIn(tx, id))
      await this.complete(tx, userId, idempotencyKey, result)
      return result
    })
  }

  async withdrawals(userId: number): Promise<Withdrawal[]> {
    return (await this.deps.banking.withdrawals({ userId })).map(toWithdrawal)
  }

  async staffWithdrawals(status?: Withdrawal['status']): Promise<StaffWithdrawal[]> {
    return (await this.deps.banking.withdrawals({ status })).map(toStaffWithdrawal)
  }

  /** Staff sent the money: it leaves the user's withdrawal account for the outside world. */
  payWithdrawal(id: number, note: string | undefined, actor: Actor): Promise<StaffWithdrawal> {
    return this.decideWithdrawal(id, 'paid', note, actor)
  }

  /** Staff will not send it: the reserved money goes back where it came from. */
  refuseWithdrawal(id: number, note: string | undefined, actor: Actor): Promise<StaffWithdrawal> {
    return this.decideWithdrawal(id, 'refused', note, actor)
  }

  private decideWithdrawal(
    id: number,
    status: 'paid' | 'refused',
    note: string | undefined,
    actor: Actor,
  ): Promise<StaffWithdrawal> {
    const { banking, transact, clock, ledger } = this.deps
    return transact(async (tx) => {
      const withdrawal = await banking.lockWithdrawal(tx, id)
      if (!withdrawal) throw new AppError('NOT_FOUND', { withdrawalId: id })
      const now = clock.now()
      const claim = await this.claim<StaffWithdrawal>(
        tx,
        actor.idempotencyOwner,
        actor.idempotencyKey,
        requestHash({ withdrawal: id, status, note }),
        now,
      )
      if (claim.kind === 'replay') return claim.result
      if (withdrawal.status !== 'requested') {
        throw new AppError('NOT_PENDING', { status: withdrawal.status })
      }
      if (!(await banking.decideWithdrawal(tx, id, { status, note: note ?? null, now }))) {
        throw new AppError('NOT_PENDING')
      }
      const source = withdrawal.source as 'balance' | 'deposit'
      await ledger.post(
        tx,
        withdrawal.user_id,
        { kind: `withdrawal_${status}`, memo: `withdrawal ${id}`, now },
        status === 'paid'
          ? payWithdrawal(withdrawal.amount)
          : refuseWithdrawal(withdrawal.amount, source),
      )
      const told = { withdrawalId: id, amount: withdrawal.amount }
      await (status === 'paid'
        ? this.deps.notices.add(tx, withdrawal.user_id, 'withdrawal_paid', told, WITHDRAWALS_LINK)
        : this.deps.notices.add(
            tx,
            withdrawal.user_id,
            'withdrawal_refused',
            { ...told, ...(note ? { note } : {}) },
            WITHDRAWALS_LINK,
          ))
      const result = toStaffWithdrawal(await this.withdrawalIn(tx, id))
      await this.complete(tx, actor.idempotencyOwner, actor.idempotencyKey, result)
      return result
    })
  }

  // Helpers.

  private async remittanceIn(tx: Tx, id: number) {
    const row = await this.deps.banking.remittance(tx, id)
    if (!row) throw new AppError('NOT_FOUND', { remittanceId: id })
    return row
  }

  private async withdrawalIn(tx: Tx, id: number) {
    const row = await this.deps.banking.withdrawal(tx, id)
    if (!row) throw new AppError('NOT_FOUND', { withdrawalId: id })
    return row
  }

  /** Claims the key after the caller's row locks, so a concurrent retry waits, then replays. */
  private async claim<T>(
    tx: Tx,
    owner: number,
    key: string | undefined,
    hash: string,
    now: number,
  ): Promise<Claimed<T>> {
    if (key === undefined) return { kind: 'new' }
    return this.deps.idempotency.claim<T>(tx, owner, key, hash, now)
  }

  private async complete(tx: Tx, owner: number, key: string | undefined, result: unknown) {
    if (key !== undefined) await this.deps.idempotency.complete(tx, owner, key, result)
  }
}
