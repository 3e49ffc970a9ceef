import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { creditBalance } from '@numisma/domain/postings'
import { expect } from 'vitest'
import type { AppOptions } from '../../src/app'
import { ClosingSweeper } from '../../src/modules/bidding/closing'
import { LedgerService } from '../../src/modules/ledger/service'
import { SANDBOX_WECHAT_PAY } from '../../src/platform/config'
import { writeTransaction } from '../../src/platform/transactions'
import type { Session, TestApp } from './app'
import { createLot, creditDeposit } from './auction'

const MINUTE = 60_000
/** Where the sandbox posts notices in tests (the host is never dialled: delivery is injected). */
export const TEST_NOTIFY_URL = 'http://numisma.test/svc/main/pay/notify/wechat'
export const PAY_PASSWORD = '135790'

/**
 * The messaging platform's pay wired through `inject` for tests that never listen on a port: our
 * client's unified order goes to the sandbox's route, and the sandbox's notices to our notify
 * route. Every notice the sandbox posts is kept, so a test can replay one. `attach` once the app
 * is built.
 */
export function injectedWechatPay() {
  let app: FastifyInstance | undefined
  const delivered: { url: string; xml: string; statusCode: number }[] = []
  const appOrThrow = () => {
    if (!app) throw new Error('injectedWechatPay: attach the app first')
    return app
  }
  const options: NonNullable<AppOptions['wechatPay']> = {
    notifyUrl: TEST_NOTIFY_URL,
    sandboxRetryDelaysMs: [],
    transport: async (path, xml) =>
      (
        await appOrThrow().inject({
          method: 'POST',
          url: `/svc/sandbox/wxpay${path}`,
          headers: { 'content-type': 'text/xml' },
          payload: xml,
        })
      ).body,
    noticeDelivery: async (url, xml) => {
      const res = await appOrThrow().inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': 'text/xml' },
        payload: xml,
      })
      delivered.push({ url, xml, statusCode: res.statusCode })
      if (res.statusCode !== 200) throw new Error(`notify answered ${res.statusCode}`)
      return res.body
    },
  }
  return {
    options,
    delivered,
    attach(built: FastifyInstance) {
      app = built
    },
  }
}

export const sandboxKey = SANDBOX_WECHAT_PAY.key

/** Posts a notice document to our notify route as the platform would. */
export function postNotice(t: TestApp, xml: string): Promise<LightMyRequestResponse> {
  return t.inject({
    method: 'POST',
    url: '/svc/main/pay/notify/wechat',
    headers: { 'content-type': 'text/xml' },
    payload: xml,
  })
}

/** The payer confirms on the sandbox's payment sheet; returns the redirect it answered with. */
export async function confirmAtCashier(
  t: TestApp,
  prepayId: string,
  redirect = '/account/paySuc',
): Promise<LightMyRequestResponse> {
  const page = await t.inject({
    method: 'GET',
    url: `/svc/sandbox/wxpay/cashier?prepay_id=${encodeURIComponent(prepayId)}&redirect=${encodeURIComponent(redirect)}`,
  })
  expect(page.statusCode, page.body).toBe(200)
  return t.inject({
    method: 'POST',
    url: '/svc/sandbox/wxpay/cashier/confirm',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ prepay_id: prepayId, redirect }).toString(),
  })
}

/** Money paid in from outside onto a user's balance, through the ledger's own rule. */
export async function fundBalance(t: TestApp, userId: string | number, amount: number) {
  const ledger = new LedgerService(t.database, t.clock)
  await writeTransaction(t.database, (tx) =>
    ledger.post(
      tx,
      Number(userId),
      { kind: 'test_credit', memo: 'test', now: t.clock.now() },
      creditBalance(amount),
    ),
  )
}

export async function balanceOf(
  t: TestApp,
  userId: string | number,
  kind: 'balance' | 'deposit' = 'balance',
) {
  return (await new LedgerService(t.database, t.clock).balances(Number(userId)))[kind]
}

/** A signed-in user with the test payment password set. */
export async function payer(t: TestApp): Promise<Session> {
  const session = await t.signIn()
  const set = await t.call({
    method: 'POST',
    path: '/user/@setPayPass',
    as: session,
    body: { password: PAY_PASSWORD },
  })
  if (set.statusCode !== 200) throw new Error(`setPayPass failed: ${set.body}`)
  return session
}

/** `POST /user/3_3/pay/doPay` as a signed-in user. */
export function doPay(
  t: TestApp,
  as: Session,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return t.call({ method: 'POST', path: '/user/3_3/pay/doPay', as, body, headers })
}

/**
 * The winner's auction order for a lot won at `price` through the real bid and closing path (the
 * clock moves past the lot's end). Returns the order id.
 */
export async function winLot(t: TestApp, winner: Session, price = 100_000): Promise<number> {
  await creditDeposit(t, winner.userId, price)
  const lotId = await createLot(t, { startPrice: price, endsAt: t.clock.now() + MINUTE })
  const bid = await t.call({
    method: 'POST',
    path: '/bidding/bid',
    as: winner,
    body: { lotId, amount: price, proxy: false },
  })
  if (bid.statusCode !== 200) throw new Error(`bid failed: ${bid.body}`)
  // Past the end, soft close included (a bid in the last 5 minutes extends it).
  t.clock.advance(10 * MINUTE)
  await ClosingSweeper.forDatabase(t.database, t.clock, t.app.bus).sweep()
  const order = await t.database.db
    .selectFrom('orders')
    .select('id')
    .where('lot_id', '=', lotId)
    .executeTakeFirstOrThrow()
  return order.id
}
