import type {
  CompanyBank,
  Remittance,
  RemittanceRequest,
  Withdrawal,
  WithdrawalRequest,
} from '@numisma/contracts/account'
import { MutationObserver, QueryClient } from '@tanstack/react-query'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type * as ApiClientModule from '../api-client'
import { ApiError, type RequestOptions } from '../api-client'
import { ORDERS_KEY, USER_STATISTICS_KEY } from '../orders/query-keys'
import { answered, nextAttempt } from './attempt'
import { companyBanksQueryOptions, getCompanyBanks } from './company-banks'
import { COMPANY_BANKS_KEY, FINANCE_KEY, REMITTANCES_KEY, WITHDRAWALS_KEY } from './query-keys'
import {
  getRemittances,
  remittancesQueryOptions,
  submitRemittance,
  submitRemittanceMutationOptions,
} from './remittances'
import { getWaitPayStatistics, waitPayStatisticsQueryOptions } from './wait-pay-statistics'
import {
  getWithdrawals,
  requestWithdrawal,
  requestWithdrawalMutationOptions,
  withdrawalsQueryOptions,
} from './withdrawals'

/** The finance calls against a fake client that parses with each file's schema. */
interface FakeServer {
  calls: RequestOptions<unknown>[]
  reply: unknown
  failure: Error | undefined
}
const server = vi.hoisted((): FakeServer => ({ calls: [], reply: undefined, failure: undefined }))

vi.mock('../api-client', async (importOriginal) => {
  const real = await importOriginal<typeof ApiClientModule>()
  const { loadSchema } = await import('../lazy-schema')
  return {
    ...real,
    request: vi.fn(async (options: RequestOptions<unknown>) => {
      server.calls.push(options)
      if (server.failure !== undefined) throw server.failure
      return options.schema ? (await loadSchema(options.schema)).parse(server.reply) : server.reply
    }),
  }
})

beforeEach(() => {
  server.calls = []
  server.reply = undefined
  server.failure = undefined
})

const lastCall = () => server.calls.at(-1)!

const buildBank = (overrides: Partial<CompanyBank> = {}): CompanyBank => ({
  id: 1,
  bankName: '中国工商银行',
  branch: '北京金融街支行',
  accountName: '泉藏拍卖有限公司',
  accountNo: '0200001234567890123',
  ...overrides,
})

const buildNotice = (overrides: Partial<RemittanceRequest> = {}): RemittanceRequest => ({
  companyBankId: 1,
  amount: 11_000,
  payerName: '张三',
  payerBank: '中国银行',
  remittedOn: '2030-01-02',
  orderIds: [41],
  ...overrides,
})

const buildRemittance = (overrides: Partial<Remittance> = {}): Remittance => ({
  id: 7,
  companyBankId: 1,
  amount: 11_000,
  payerName: '张三',
  payerBank: '中国银行',
  remittedOn: '2030-01-02',
  orderIds: [41],
  receiptUrl: null,
  status: 'submitted',
  note: null,
  amountReceived: null,
  createdAt: '2030-01-02T01:00:00.000Z',
  ...overrides,
})

const buildWithdrawalRequest = (overrides: Partial<WithdrawalRequest> = {}): WithdrawalRequest => ({
  amount: 5_000,
  source: 'balance',
  bankName: '招商银行',
  accountName: '张三',
  accountNo: '6225880012345678',
  ...overrides,
})

const buildWithdrawal = (overrides: Partial<Withdrawal> = {}): Withdrawal => ({
  id: 3,
  amount: 5_000,
  source: 'balance',
  bankName: '招商银行',
  accountName: '张三',
  accountNo: '************5678',
  status: 'requested',
  note: null,
  createdAt: '2030-01-02T01:00:00.000Z',
  decidedAt: null,
  ...overrides,
})

const stale = (queryClient: QueryClient, queryKey: readonly unknown[]) =>
  queryClient.getQueryState(queryKey)?.isInvalidated

const seed = (queryClient: QueryClient) => {
  queryClient.setQueryData(COMPANY_BANKS_KEY, [buildBank()])
  queryClient.setQueryData(REMITTANCES_KEY, [buildRemittance()])
  queryClient.setQueryData(WITHDRAWALS_KEY, [buildWithdrawal()])
  queryClient.setQueryData([...ORDERS_KEY, 'pending'], [])
  queryClient.setQueryData(USER_STATISTICS_KEY, { balance: 0 })
}

describe('company bank accounts', () => {
  it('reads the list with the list default error, checked by the contract', async () => {
    server.reply = [buildBank(), buildBank({ id: 2 })]
    await expect(getCompanyBanks()).resolves.toHaveLength(2)
    expect(lastCall()).toMatchObject({
      path: '/user/finance/@companyBanks',
      defaultError: 'GET_LIST_FAILED',
    })
    expect(lastCall().method ?? 'GET').toBe('GET')
    server.reply = [{ ...buildBank(), accountNo: undefined }]
    await expect(getCompanyBanks()).rejects.toThrow()
  })

  it('keys every finance list under one root, apart from each other', () => {
    const keys = [
      companyBanksQueryOptions().queryKey,
      remittancesQueryOptions().queryKey,
      withdrawalsQueryOptions().queryKey,
    ]
    for (const key of keys) expect(key.slice(0, FINANCE_KEY.length)).toEqual([...FINANCE_KEY])
    expect(new Set(keys.map((k) => JSON.stringify(k))).size).toBe(3)
  })
})

describe('remittance notices', () => {
  it('posts a notice with its key and the submit default error', async () => {
    server.reply = buildRemittance()
    await expect(submitRemittance(buildNotice(), 'key-12345678')).resolves.toEqual(
      buildRemittance(),
    )
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/finance/@remittance',
      body: buildNotice(),
      defaultError: 'SUBMIT_FAILED',
      idempotencyKey: 'key-12345678',
    })
  })

  it('lists my notices and refuses an unknown status', async () => {
    server.reply = [buildRemittance({ status: 'rejected', note: '金额不符' })]
    await expect(getRemittances()).resolves.toEqual([
      buildRemittance({ status: 'rejected', note: '金额不符' }),
    ])
    expect(lastCall()).toMatchObject({
      path: '/user/finance/remittances',
      defaultError: 'GET_LIST_FAILED',
    })
    server.reply = [{ ...buildRemittance(), status: 'lost' }]
    await expect(getRemittances()).rejects.toThrow()
  })

  it('refreshes the notices, orders and user centre after filing, not the bank list', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.reply = buildRemittance()
    const submit = new MutationObserver(queryClient, submitRemittanceMutationOptions(queryClient))
    await submit.mutate({ notice: buildNotice(), idempotencyKey: 'key-12345678' })
    expect(stale(queryClient, REMITTANCES_KEY)).toBe(true)
    expect(stale(queryClient, [...ORDERS_KEY, 'pending'])).toBe(true)
    expect(stale(queryClient, USER_STATISTICS_KEY)).toBe(true)
    expect(stale(queryClient, COMPANY_BANKS_KEY)).toBe(false)
    expect(stale(queryClient, WITHDRAWALS_KEY)).toBe(false)
  })

  it('refreshes after a refusal, not after a call that never left the phone', async () => {
    const refused = new QueryClient()
    seed(refused)
    server.failure = new ApiError('RECEIPT_INVALID', 400, 'unreadable')
    const submit = new MutationObserver(refused, submitRemittanceMutationOptions(refused))
    await expect(
      submit.mutate({ notice: buildNotice(), idempotencyKey: 'k-1234567' }),
    ).rejects.toThrow('unreadable')
    expect(stale(refused, REMITTANCES_KEY)).toBe(true)

    const offline = new QueryClient()
    seed(offline)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const again = new MutationObserver(offline, submitRemittanceMutationOptions(offline))
    await expect(
      again.mutate({ notice: buildNotice(), idempotencyKey: 'k-1234567' }),
    ).rejects.toThrow('offline')
    expect(stale(offline, REMITTANCES_KEY)).toBe(false)
    expect(stale(offline, USER_STATISTICS_KEY)).toBe(false)
  })
})

describe('withdrawals', () => {
  it('posts a request with its key and the submit default error', async () => {
    server.reply = buildWithdrawal()
    await expect(requestWithdrawal(buildWithdrawalRequest(), 'key-87654321')).resolves.toEqual(
      buildWithdrawal(),
    )
    expect(lastCall()).toMatchObject({
      method: 'POST',
      path: '/user/finance/withdrawals',
      body: buildWithdrawalRequest(),
      defaultError: 'SUBMIT_FAILED',
      idempotencyKey: 'key-87654321',
    })
  })

  it('lists my requests, checked by the contract', async () => {
    server.reply = [buildWithdrawal({ status: 'paid', decidedAt: '2030-01-03T00:00:00.000Z' })]
    await expect(getWithdrawals()).resolves.toHaveLength(1)
    expect(lastCall()).toMatchObject({
      path: '/user/finance/withdrawals',
      defaultError: 'GET_LIST_FAILED',
    })
    expect(lastCall().method ?? 'GET').toBe('GET')
    server.reply = [{ ...buildWithdrawal(), source: 'quota' }]
    await expect(getWithdrawals()).rejects.toThrow()
  })

  it('refreshes the requests and the user centre’s money after a request or a refusal', async () => {
    const queryClient = new QueryClient()
    seed(queryClient)
    server.reply = buildWithdrawal()
    const withdraw = new MutationObserver(
      queryClient,
      requestWithdrawalMutationOptions(queryClient),
    )
    await withdraw.mutate({ withdrawal: buildWithdrawalRequest(), idempotencyKey: 'k-1234567' })
    expect(stale(queryClient, WITHDRAWALS_KEY)).toBe(true)
    expect(stale(queryClient, USER_STATISTICS_KEY)).toBe(true)
    expect(stale(queryClient, REMITTANCES_KEY)).toBe(false)

    const refused = new QueryClient()
    seed(refused)
    server.failure = new ApiError('DEPOSIT_IN_USE', 409, 'held')
    const again = new MutationObserver(refused, requestWithdrawalMutationOptions(refused))
    await expect(
      again.mutate({ withdrawal: buildWithdrawalRequest(), idempotencyKey: 'k-1234567' }),
    ).rejects.toThrow('held')
    expect(stale(refused, USER_STATISTICS_KEY)).toBe(true)

    const offline = new QueryClient()
    seed(offline)
    server.failure = new ApiError('OFFLINE', 0, 'offline')
    const never = new MutationObserver(offline, requestWithdrawalMutationOptions(offline))
    await expect(
      never.mutate({ withdrawal: buildWithdrawalRequest(), idempotencyKey: 'k-1234567' }),
    ).rejects.toThrow('offline')
    expect(stale(offline, USER_STATISTICS_KEY)).toBe(false)
  })
})

describe('what orders come to', () => {
  it('asks for the orders as one comma list with the fee default error', async () => {
    server.reply = {
      count: 2,
      goods: 20_000,
      fee: 1_000,
      discount: 0,
      total: 21_000,
      balance: 0,
      balanceCovers: false,
    }
    await expect(getWaitPayStatistics([41, 42])).resolves.toMatchObject({ total: 21_000 })
    expect(lastCall()).toMatchObject({
      path: '/user/3_3/pay/waitPayStatistics',
      query: { orderIds: '41,42' },
      defaultError: 'GET_FEE_FAILED',
    })
  })

  it('keys it under the orders root (paying changes it) and asks nothing without orders', () => {
    const options = waitPayStatisticsQueryOptions([41, 42])
    expect(options.queryKey.slice(0, ORDERS_KEY.length)).toEqual([...ORDERS_KEY])
    expect(options.enabled).toBe(true)
    expect(waitPayStatisticsQueryOptions([]).enabled).toBe(false)
  })
})

describe('attempt keys', () => {
  let n = 0
  const newKey = () => `key-${++n}`

  it('keeps the key of an unanswered attempt for the same body, renews it for another', () => {
    const first = nextAttempt(null, buildWithdrawalRequest(), newKey)
    expect(nextAttempt(first, buildWithdrawalRequest(), newKey)).toBe(first)
    const other = nextAttempt(first, buildWithdrawalRequest({ amount: 6_000 }), newKey)
    expect(other.key).not.toBe(first.key)
  })

  it('spends a key on any server answer, not on a call without one', () => {
    expect(answered(new ApiError('BALANCE_LOW', 409, 'low'))).toBe(true)
    expect(answered(new ApiError('TIMEOUT', 0, 'timeout'))).toBe(false)
    expect(answered(new ApiError('OFFLINE', 0, 'offline'))).toBe(false)
    expect(answered(new Error('other'))).toBe(false)
  })
})
