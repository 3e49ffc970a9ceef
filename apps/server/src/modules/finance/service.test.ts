import type { RemittanceRequest, WithdrawalRequest } from '@numisma/contracts/account'
import type { Leg } from '@numisma/domain/postings'
import { describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { IdempotencyStore } from '../../platform/idempotency'
import type { Transact, Tx } from '../../platform/transactions'
import { maskAccountNo } from './mappers'
import type {
  BankingRepository,
  NewRemittance,
  NewWithdrawal,
  RemittanceRow,
  WithdrawalRow,
} from './repository'
import { BankingService } from './service'

/**
 * BankingService over in-memory fakes (the Immich pattern): each rule and refusal of remittances
 * and withdrawals without a database. Concurrency and the ledger's invariants are the integration
 * tests' (apps/server/test/remittance.test.ts, withdrawals.test.ts), on both databases.
 */
const y = (yuan: number) => yuan * 100
const NOW = Date.UTC(2026, 10, 24, 3)
const USER = 5
const OTHER = 6
const STAFF = { idempotencyOwner: -1 }
const PASSWORD = '135790'

class FakeBanking implements Pick<BankingRepository, keyof BankingRepository> {
  banks = [
    {
      id: 1,
      bank_name: '中国工商银行',
      branch: '北京潘家园支行',
      account_name: '泉藏',
      account_no: '0200248909200135678',
      active: 1,
    },
  ]
  orders = new Map<
    number,
    { userId: number; status: string; payMethod: string | null; total?: number }
  >()
  remittanceRows: (RemittanceRow & { receipt: string | null })[] = []
  withdrawalRows: WithdrawalRow[] = []

  companyBanks() {
    return Promise.resolve(this.banks.filter((b) => b.active === 1))
  }
  addCompanyBank() {
    return Promise.resolve(2)
  }
  activeCompanyBank(_tx: Tx, id: number) {
    return Promise.resolve(this.banks.some((b) => b.id === id && b.active === 1))
  }
  lockOrdersOf(_tx: Tx, userId: number, ids: readonly number[]) {
    return Promise.resolve(
      ids
        .filter((id) => this.orders.get(id)?.userId === userId)
        .map((id) => ({
          id,
          status: this.orders.get(id)!.status,
          total: this.orders.get(id)!.total ?? y(100),
          kind: 'auction',
          due_at: null,
          pay_method: this.orders.get(id)!.payMethod,
        })),
    )
  }
  setPayMethod(_tx: Tx, ids: readonly number[], payMethod: 'remittance' | null) {
    for (const id of ids) {
      const order = this.orders.get(id)
      if (order && ['pending_payment', 'overdue'].includes(order.status))
        order.payMethod = payMethod
    }
    return Promise.resolve()
  }
  insertRemittance(_tx: Tx, r: NewRemittance) {
    const id = this.remittanceRows.length + 1
    this.remittanceRows.push({
      id,
      user_id: r.userId,
      company_bank_id: r.companyBankId,
      amount: r.amount,
      payer_name: r.payerName,
      payer_bank: r.payerBank,
      remitted_on: r.remittedOn,
      order_ids: JSON.stringify(r.orderIds),
      receipt: r.receipt,
      hasReceipt: r.receipt !== null,
      status: 'submitted',
      note: null,
      transfer_id: null,
      created_at: r.now,
      decided_at: null,
      amount_received: null,
    })
    return Promise.resolve(id)
  }
  remittance(_tx: Tx, id: number) {
    return Promise.resolve(this.remittanceRows.find((r) => r.id === id))
  }
  lockRemittance(tx: Tx, id: number) {
    return this.remittance(tx, id)
  }
  remittances(filter: { userId?: number; status?: string }) {
    return Promise.resolve(
      this.remittanceRows
        .filter((r) => filter.userId === undefined || r.user_id === filter.userId)
        .filter((r) => filter.status === undefined || r.status === filter.status)
        .reverse(),
    )
  }
  submittedRemittanceOrderIds(_tx: Tx, userId: number, except: number) {
    return Promise.resolve(
      this.remittanceRows
        .filter((r) => r.user_id === userId && r.status === 'submitted' && r.id !== except)
        .flatMap((r) => JSON.parse(r.order_ids) as number[]),
    )
  }
  receipt(id: number) {
    const row = this.remittanceRows.find((r) => r.id === id)
    return Promise.resolve(row && { userId: row.user_id, receipt: row.receipt })
  }
  decideRemittance(
    _tx: Tx,
    id: number,
    d: {
      status: 'confirmed' | 'rejected'
      note: string | null
      transferId: number | null
      amountReceived: number | null
      now: number
    },
  ) {
    const row = this.remittanceRows.find((r) => r.id === id)
    if (!row || row.status !== 'submitted') return Promise.resolve(false)
    Object.assign(row, {
      status: d.status,
      note: d.note,
      transfer_id: d.transferId,
      amount_received: d.amountReceived,
      decided_at: d.now,
    })
    return Promise.resolve(true)
  }
  insertWithdrawal(_tx: Tx, w: NewWithdrawal) {
    const id = this.withdrawalRows.length + 1
    this.withdrawalRows.push({
      id,
      user_id: w.userId,
      amount: w.amount,
      source: w.source,
      bank_name: w.bankName,
      account_name: w.accountName,
      account_no: w.accountNo,
      status: 'requested',
      note: null,
      created_at: w.now,
      decided_at: null,
    })
    return Promise.resolve(id)
  }
  withdrawal(_tx: Tx, id: number) {
    return Promise.resolve(this.withdrawalRows.find((w) => w.id === id))
  }
  lockWithdrawal(tx: Tx, id: number) {
    return this.withdrawal(tx, id)
  }
  withdrawals(filter: { userId?: number; status?: string }) {
    return Promise.resolve(
      this.withdrawalRows
        .filter((w) => filter.userId === undefined || w.user_id === filter.userId)
        .filter((w) => filter.status === undefined || w.status === filter.status),
    )
  }
  decideWithdrawal(
    _tx: Tx,
    id: number,
    d: { status: 'paid' | 'refused'; note: string | null; now: number },
  ) {
    const row = this.withdrawalRows.find((w) => w.id === id)
    if (!row || row.status !== 'requested') return Promise.resolve(false)
    Object.assign(row, { status: d.status, note: d.note, decided_at: d.now })
    return Promise.resolve(true)
  }
}

function setup(
  options: {
    balance?: number
    deposit?: number
    exposure?: number
    password?: string
    overdue?: { hammer: number; total: number }
  } = {},
) {
  const banking = new FakeBanking()
  const posts: { userId: number; kind: string; legs: readonly Leg[] }[] = []
  const ledger = {
    post: vi.fn((_tx: Tx, userId: number, t: { kind: string }, legs: readonly Leg[]) => {
      posts.push({ userId, kind: t.kind, legs })
      return Promise.resolve(posts.length)
    }),
    balanceIn: vi.fn(() => Promise.resolve(options.balance ?? 0)),
    lock: vi.fn(() => Promise.resolve()),
  }
  const settlement = { settleFromBalance: vi.fn(() => Promise.resolve(77)) }
  const heldDeposit = vi.fn(() =>
    Promise.resolve({
      deposit: options.deposit ?? 0,
      exposure: options.exposure ?? 0,
      multiplier: 10,
      overdue: options.overdue ?? { hammer: 0, total: 0 },
    }),
  )
  const receipts = {
    normalise: vi.fn((dataUrl: string) =>
      dataUrl.includes('bad')
        ? Promise.reject(new AppError('RECEIPT_INVALID'))
        : Promise.resolve(Buffer.from('jpeg-bytes')),
    ),
  }
  const idempotency = {
    claim: vi.fn(() => Promise.resolve({ kind: 'new' as const })),
    complete: vi.fn(() => Promise.resolve()),
    committed: vi.fn(() => Promise.resolve(false)),
  }
  const passwords = {
    verify: vi.fn((_userId: number, password: string | undefined) =>
      password === (options.password ?? PASSWORD)
        ? Promise.resolve()
        : Promise.reject(new AppError('PAY_PASSWORD_WRONG')),
    ),
  }
  const told: { userId: number; kind: string; params: unknown; link: string | null }[] = []
  const notices = {
    add: vi.fn((_tx: Tx, userId: number, kind: string, params: unknown, link: string | null) => {
      told.push({ userId, kind, params, link })
      return Promise.resolve()
    }),
  }
  const transact = ((work: (tx: Tx) => Promise<unknown>) => work({} as Tx)) as Transact
  const service = new BankingService({
    transact,
    clock: new FakeClock(NOW),
    banking,
    ledger,
    settlement,
    heldDeposit,
    receipts,
    idempotency: idempotency as unknown as IdempotencyStore,
    passwords,
    notices,
  })
  return {
    service,
    told,
    banking,
    ledger,
    posts,
    settlement,
    heldDeposit,
    receipts,
    idempotency,
    passwords,
  }
}

const notice = (overrides: Partial<RemittanceRequest> = {}): RemittanceRequest => ({
  companyBankId: 1,
  amount: y(1_000),
  payerName: '张三',
  payerBank: '中国银行',
  remittedOn: '2026-11-24',
  orderIds: [],
  ...overrides,
})

const withdrawal = (overrides: Partial<WithdrawalRequest> = {}): WithdrawalRequest => ({
  amount: y(100),
  source: 'balance',
  bankName: '中国建设银行',
  accountName: '张三',
  accountNo: '6217000010001234567',
  payPassword: PASSWORD,
  ...overrides,
})

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}

describe('reporting a remittance', () => {
  it('files the notice with its re-encoded receipt and keeps the named orders waiting for it', async () => {
    const s = setup()
    s.banking.orders.set(10, { userId: USER, status: 'pending_payment', payMethod: null })
    s.banking.orders.set(11, { userId: USER, status: 'overdue', payMethod: null })
    const result = await s.service.reportRemittance(
      USER,
      notice({ orderIds: [10, 11, 10], receipt: 'data:image/png;base64,AAAA' }),
    )
    expect(result).toMatchObject({
      id: 1,
      status: 'submitted',
      orderIds: [10, 11],
      receiptUrl: '/user/finance/remittances/1/receipt',
    })
    expect(s.receipts.normalise).toHaveBeenCalledOnce()
    expect(s.banking.remittanceRows[0]!.receipt).toBe(Buffer.from('jpeg-bytes').toString('base64'))
    expect(s.banking.orders.get(10)!.payMethod).toBe('remittance')
    expect(s.banking.orders.get(11)!.payMethod).toBe('remittance')
    expect(s.posts).toEqual([])
  })

  it("refuses another user's order and a paid one with ORDER_NOT_PAYABLE, naming them, and files nothing", async () => {
    const s = setup()
    s.banking.orders.set(10, { userId: USER, status: 'pending_payment', payMethod: null })
    s.banking.orders.set(12, { userId: OTHER, status: 'pending_payment', payMethod: null })
    s.banking.orders.set(13, { userId: USER, status: 'paid', payMethod: null })
    const error = await refusal(
      s.service.reportRemittance(USER, notice({ orderIds: [10, 12, 13] })),
    )
    expect(error.code).toBe('ORDER_NOT_PAYABLE')
    expect(error.details).toEqual({ orderIds: [12, 13] })
    expect(s.banking.remittanceRows).toEqual([])
    expect(s.banking.orders.get(10)!.payMethod).toBeNull()
  })

  it('refuses an unknown company account and an unreadable receipt', async () => {
    const s = setup()
    expect(
      (await refusal(s.service.reportRemittance(USER, notice({ companyBankId: 9 })))).code,
    ).toBe('VALIDATION_FAILED')
    const bad = notice({ receipt: 'data:image/png;base64,bad' })
    expect((await refusal(s.service.reportRemittance(USER, bad))).code).toBe('RECEIPT_INVALID')
    expect(s.banking.remittanceRows).toEqual([])
  })

  it('serves the receipt to its owner and to staff, and answers 404 to anyone else', async () => {
    const s = setup()
    await s.service.reportRemittance(USER, notice({ receipt: 'data:image/png;base64,AAAA' }))
    await s.service.reportRemittance(USER, notice())
    expect((await s.service.receipt(1, USER)).toString()).toBe('jpeg-bytes')
    expect((await s.service.receipt(1, null)).toString()).toBe('jpeg-bytes')
    expect((await refusal(s.service.receipt(1, OTHER))).code).toBe('NOT_FOUND')
    expect((await refusal(s.service.receipt(2, USER))).code).toBe('NOT_FOUND')
  })
})

describe('staff deciding a remittance', () => {
  it('confirming credits the whole amount to the balance, then pays the named orders from it, once', async () => {
    const s = setup()
    s.banking.orders.set(10, { userId: USER, status: 'pending_payment', payMethod: null })
    await s.service.reportRemittance(USER, notice({ orderIds: [10] }))
    const result = await s.service.confirmRemittance(1, { note: '到账' }, STAFF)
    expect(result).toMatchObject({
      id: 1,
      userId: USER,
      status: 'confirmed',
      note: '到账',
      amountReceived: y(1_000),
    })
    expect(s.posts).toEqual([
      {
        userId: USER,
        kind: 'remittance',
        legs: [
          { owner: 'platform', kind: 'platform_clearing', amount: -y(1_000) },
          { owner: 'user', kind: 'balance', amount: y(1_000) },
        ],
      },
    ])
    expect(s.settlement.settleFromBalance).toHaveBeenCalledWith(expect.anything(), USER, [10], NOW)
    expect(s.banking.remittanceRows[0]!.transfer_id).toBe(1)
    expect(s.told).toEqual([
      {
        userId: USER,
        kind: 'remittance_confirmed',
        params: { remittanceId: 1, amount: y(1_000) },
        link: '/account/sendBankInfo',
      },
    ])

    expect((await refusal(s.service.confirmRemittance(1, {}, STAFF))).code).toBe('NOT_PENDING')
    expect((await refusal(s.service.rejectRemittance(1, undefined, STAFF))).code).toBe(
      'NOT_PENDING',
    )
    expect(s.posts).toHaveLength(1)
    expect(s.settlement.settleFromBalance).toHaveBeenCalledOnce()
  })

  it('pays the orders only out of what arrived: in id order, up to the first that does not fit', async () => {
    const s = setup({ balance: y(10_000) })
    s.banking.orders.set(12, {
      userId: USER,
      status: 'pending_payment',
      payMethod: null,
      total: y(300),
    })
    s.banking.orders.set(10, {
      userId: USER,
      status: 'pending_payment',
      payMethod: null,
      total: y(400),
    })
    s.banking.orders.set(11, {
      userId: USER,
      status: 'pending_payment',
      payMethod: null,
      total: y(500),
    })
    s.banking.orders.set(13, {
      userId: USER,
      status: 'pending_payment',
      payMethod: null,
      total: y(1),
    })
    await s.service.reportRemittance(USER, notice({ orderIds: [13, 12, 11, 10] }))
    s.banking.orders.get(13)!.status = 'cancelled'
    const result = await s.service.confirmRemittance(1, { amountReceived: y(950) }, STAFF)
    expect(result.amountReceived).toBe(y(950))
    expect(s.posts[0]!.legs).toContainEqual({ owner: 'user', kind: 'balance', amount: y(950) })
    // 10 (400) and 11 (500) fit in 950; 12 (300) does not fit in the 50 left; 13 is not payable.
    expect(s.settlement.settleFromBalance).toHaveBeenCalledWith(
      expect.anything(),
      USER,
      [10, 11],
      NOW,
    )
  })

  it('pays nothing when what arrived covers not even the first order', async () => {
    const s = setup({ balance: y(10_000) })
    s.banking.orders.set(10, {
      userId: USER,
      status: 'pending_payment',
      payMethod: null,
      total: y(400),
    })
    await s.service.reportRemittance(USER, notice({ orderIds: [10] }))
    await s.service.confirmRemittance(1, { amountReceived: y(399) }, STAFF)
    expect(s.settlement.settleFromBalance).not.toHaveBeenCalled()
  })

  it('rejecting moves no money and puts orders back on the clock unless another notice awaits them', async () => {
    const s = setup()
    s.banking.orders.set(10, { userId: USER, status: 'pending_payment', payMethod: null })
    s.banking.orders.set(11, { userId: USER, status: 'pending_payment', payMethod: null })
    await s.service.reportRemittance(USER, notice({ orderIds: [10, 11] }))
    await s.service.reportRemittance(USER, notice({ orderIds: [11] }))
    const result = await s.service.rejectRemittance(1, '未到账', STAFF)
    expect(result).toMatchObject({ status: 'rejected', note: '未到账' })
    expect(s.posts).toEqual([])
    expect(s.banking.orders.get(10)!.payMethod).toBeNull()
    expect(s.banking.orders.get(11)!.payMethod).toBe('remittance')
    expect(s.told).toEqual([
      {
        userId: USER,
        kind: 'remittance_rejected',
        params: { remittanceId: 1, note: '未到账' },
        link: '/account/sendBankInfo',
      },
    ])
  })

  it('answers 404 for a notice that does not exist', async () => {
    const s = setup()
    expect((await refusal(s.service.confirmRemittance(99, {}, STAFF))).code).toBe('NOT_FOUND')
  })
})

describe('withdrawals', () => {
  it('reserves from the balance at once, within the balance only', async () => {
    const s = setup({ balance: y(100) })
    const error = await refusal(
      s.service.requestWithdrawal(USER, withdrawal({ amount: y(100) + 1 })),
    )
    expect(error.code).toBe('BALANCE_LOW')
    expect(error.details).toEqual({ balance: y(100) })
    expect(s.banking.withdrawalRows).toEqual([])

    const result = await s.service.requestWithdrawal(USER, withdrawal({ amount: y(100) }))
    expect(result).toMatchObject({ status: 'requested', accountNo: '***************4567' })
    expect(s.ledger.lock).toHaveBeenCalledWith(expect.anything(), USER, ['balance', 'withdrawal'])
    expect(s.heldDeposit).not.toHaveBeenCalled()
    expect(s.posts.at(-1)!.legs).toEqual([
      { owner: 'user', kind: 'balance', amount: -y(100) },
      { owner: 'user', kind: 'withdrawal', amount: y(100) },
    ])
  })

  it('takes from the deposit only what exposure leaves free, judged under the exposure lock', async () => {
    // 1,000 yuan deposit, 6,000 yuan at stake: 600 held at × 10, 400 free.
    const s = setup({ deposit: y(1_000), exposure: y(6_000) })
    const error = await refusal(
      s.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(400) + 1 })),
    )
    expect(error.code).toBe('DEPOSIT_IN_USE')
    expect(error.details).toMatchObject({ free: y(400) })
    await s.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(400) }))
    expect(s.heldDeposit).toHaveBeenCalledWith(expect.anything(), USER)
    expect(s.posts.at(-1)!.legs).toEqual([
      { owner: 'user', kind: 'deposit', amount: -y(400) },
      { owner: 'user', kind: 'withdrawal', amount: y(400) },
    ])
  })

  it('keeps what an overdue winner’s lots claim of the deposit, by the rule the move back to the balance uses', async () => {
    // The hammer takes the whole deposit: nothing may leave.
    const all = setup({
      deposit: y(1_000),
      exposure: y(1_050),
      overdue: { hammer: y(1_000), total: y(1_050) },
    })
    const error = await refusal(
      all.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(1) })),
    )
    expect(error.code).toBe('DEPOSIT_IN_USE')
    expect(error.details).toMatchObject({ free: 0, overdue: true, overdueClaim: y(1_000) })
    expect(all.posts).toEqual([])

    // A 300-yuan hammer holds 300 of 1,000; the rest may go.
    const part = setup({
      deposit: y(1_000),
      exposure: y(315),
      overdue: { hammer: y(300), total: y(315) },
    })
    const over = await refusal(
      part.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(700) + 1 })),
    )
    expect(over.details).toMatchObject({ free: y(700), overdueClaim: y(300) })
    await part.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(700) }))
    expect(part.posts).toHaveLength(1)
  })

  it('paying sends the held money out; refusing returns it to its source; either once', async () => {
    const s = setup({ deposit: y(1_000) })
    await s.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(300) }))
    await s.service.requestWithdrawal(USER, withdrawal({ source: 'deposit', amount: y(200) }))
    const paid = await s.service.payWithdrawal(1, undefined, STAFF)
    expect(paid).toMatchObject({ status: 'paid', userId: USER, accountNo: '6217000010001234567' })
    expect(s.posts.at(-1)!.legs).toEqual([
      { owner: 'user', kind: 'withdrawal', amount: -y(300) },
      { owner: 'platform', kind: 'platform_clearing', amount: y(300) },
    ])
    const refused = await s.service.refuseWithdrawal(2, '户名不符', STAFF)
    expect(refused).toMatchObject({ status: 'refused', note: '户名不符' })
    expect(s.posts.at(-1)!.legs).toEqual([
      { owner: 'user', kind: 'withdrawal', amount: -y(200) },
      { owner: 'user', kind: 'deposit', amount: y(200) },
    ])
    const posted = s.posts.length
    expect((await refusal(s.service.refuseWithdrawal(1, undefined, STAFF))).code).toBe(
      'NOT_PENDING',
    )
    expect((await refusal(s.service.payWithdrawal(2, undefined, STAFF))).code).toBe('NOT_PENDING')
    expect(s.posts).toHaveLength(posted)
    expect(s.told.map(({ kind, params }) => ({ kind, params }))).toEqual([
      { kind: 'withdrawal_paid', params: { withdrawalId: 1, amount: y(300) } },
      { kind: 'withdrawal_refused', params: { withdrawalId: 2, amount: y(200), note: '户名不符' } },
    ])
  })

  it('asks the payment password first: a wrong one reserves nothing; a committed retry replays without it', async () => {
    const s = setup({ balance: y(1_000) })
    const wrong = await refusal(
      s.service.requestWithdrawal(USER, withdrawal({ payPassword: '000000' }), 'k1'),
    )
    expect(wrong.code).toBe('PAY_PASSWORD_WRONG')
    expect(s.posts).toEqual([])
    expect(s.ledger.lock).not.toHaveBeenCalled()

    const first = await s.service.requestWithdrawal(USER, withdrawal(), 'k1')
    s.idempotency.committed.mockResolvedValueOnce(true)
    s.idempotency.claim.mockResolvedValueOnce({ kind: 'replay', result: first } as never)
    const again = await s.service.requestWithdrawal(
      USER,
      withdrawal({ payPassword: '000000' }),
      'k1',
    )
    expect(again).toEqual(first)
    expect(s.passwords.verify).toHaveBeenCalledTimes(2)
    // The password is no part of the request a key stands for.
    const hashes = s.idempotency.claim.mock.calls.map((c) => (c as unknown[])[3])
    expect(new Set(hashes).size).toBe(1)
  })

  it('lists the caller’s own only, account numbers masked but the last four', async () => {
    const s = setup({ balance: y(1_000) })
    await s.service.requestWithdrawal(USER, withdrawal())
    await s.service.requestWithdrawal(OTHER, withdrawal())
    const mine = await s.service.withdrawals(USER)
    expect(mine).toHaveLength(1)
    expect(mine[0]!.accountNo).toBe(maskAccountNo('6217000010001234567'))
    expect(maskAccountNo('12345678')).toBe('****5678')
  })
})
