import { randomBytes, randomInt } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import {
  chinaTime,
  parseXml,
  signed,
  toXml,
  wxNonce,
  wxVerify,
  type WxInput,
} from '../payments/wechat-pay-protocol'
import { isSandboxOpenid } from './mp-sandbox'

/** The merchant the sandbox knows (the same settings our client signs with). */
export interface SandboxMerchant {
  appId: string
  mchId: string
  key: string
}

/**
 * Posts a notice document to a merchant's `notify_url` and returns the reply's body (throws when
 * the merchant cannot be reached or answers an HTTP error). Over HTTP in a running server; tests
 * route it through `inject`.
 */
export type NoticeDelivery = (url: string, xml: string) => Promise<string>

export const httpDelivery =
  (timeoutMs = 10_000): NoticeDelivery =>
  async (url, xml) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: xml,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`merchant answered HTTP ${response.status}: ${text}`)
    return text
  }

export interface SandboxTrade {
  prepayId: string
  outTradeNo: string
  body: string
  totalFee: number
  notifyUrl: string
  openid: string | null
  createdAt: number
  /** When this prepay id lapses: two hours after it was issued, or when the trade closes. */
  expiresAt: number
  /** When the trade closes (`time_expire`), if the merchant said; closed, it cannot be paid. */
  closesAt: number | null
  /** The request's `time_expire` as sent: asking again with another is another order (201). */
  timeExpire: string | null
  paid: { transactionId: string; at: number; delivered: boolean } | null
}

export type ConfirmResult =
  | { kind: 'paid'; trade: SandboxTrade }
  | { kind: 'already_paid'; trade: SandboxTrade }
  | { kind: 'unknown' }

/** A prepay id is good for two hours at the platform. */
const PREPAY_TTL_MS = 2 * 60 * 60 * 1000
/** The platform refuses a JSAPI `time_expire` less than five minutes away. */
const MIN_EXPIRE_MS = 5 * 60 * 1000
/** How long the sandbox remembers a closed, unpaid trade (to refuse its number). */
const CLOSED_KEPT_MS = 24 * 60 * 60 * 1000

/** `yyyyMMddHHmmss` in China time (as `time_expire` is written) to epoch ms, or null. */
function fromChinaTime(value: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const ms = Date.UTC(year, month - 1, day, hour - 8, minute, second)
  // Reject dates that rolled over (20261340…): they must read back as written.
  return chinaTime(ms) === value ? ms : null
}
/** Trades kept in memory; the oldest go first (a sandbox, not a ledger). */
const MAX_TRADES = 10_000
/** When the platform tries an unacknowledged notice again (it keeps trying for hours; we stop sooner). */
const DEFAULT_RETRY_DELAYS_MS = [15_000, 15_000, 30_000, 180_000, 600_000]

const isPositiveFen = (value: string | undefined): boolean =>
  value !== undefined && /^[1-9]\d{0,11}$/.test(value)

const isHttpUrl = (value: string | undefined): boolean => {
  if (!value) return false
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * A local stand-in for the messaging platform's JSAPI pay (DESIGN §7: "a local platform sandbox
 * mimics the platform's … pay endpoints, so these flows run end to end on one machine"): the
 * unified order that hands out prepay ids, the payment sheet (here a cashier page, see routes.ts),
 * and the signed notice it posts to the merchant's `notify_url` once the payer confirms — retried,
 * as the platform does, until the merchant answers SUCCESS. It speaks protocol v2 exactly
 * (wechat-pay-protocol.ts): XML documents MD5-signed with the merchant key, checked both ways.
 * Trades live in memory: the sandbox is for development, one process, and a restart forgets them.
 */
export class WxPaySandbox {
  private readonly trades = new Map<string, SandboxTrade>()
  private readonly byTradeNo = new Map<string, string>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private closed = false

  constructor(
    private readonly merchant: SandboxMerchant,
    private readonly deliver: NoticeDelivery,
    private readonly clock: Clock,
    private readonly options: { retryDelaysMs?: readonly number[]; log?: FastifyBaseLogger } = {},
  ) {}

  get merchantId(): string {
    return this.merchant.mchId
  }

  /** `POST /pay/unifiedorder`: the reply document for a request document. */
  unifiedOrder(xml: string): string {
    const request = parseXml(xml)
    if (!request) return this.fail('XML格式错误')
    if (!wxVerify(request, this.merchant.key)) return this.fail('签名错误')
    if (request.appid !== this.merchant.appId || request.mch_id !== this.merchant.mchId) {
      return this.fail('appid和mch_id不匹配')
    }
    const missing = ['nonce_str', 'body', 'out_trade_no', 'total_fee', 'notify_url', 'trade_type']
      .filter((name) => !request[name])
      .join(',')
    if (missing) return this.fail(`缺少参数${missing}`)
    if (request.trade_type !== 'JSAPI') return this.refuse('PARAM_ERROR', 'trade_type 仅支持 JSAPI')
    // The payer's open id must be one the platform issued under this app (the official-account
    // sandbox's, mp-sandbox.ts), as the platform refuses another app's. The platform also demands
    // one for JSAPI; the sandbox does not, because in development the page may be opened outside
    // the messaging app and paid on the cashier page, with no open id to send. Our server sends
    // one whenever the payer has linked theirs (wechat-pay.ts).
    if (request.openid !== undefined && !isSandboxOpenid(this.merchant.appId, request.openid)) {
      return this.refuse('PARAM_ERROR', 'appid和openid不匹配')
    }
    if (!isPositiveFen(request.total_fee)) return this.refuse('PARAM_ERROR', 'total_fee 不合法')
    if (!isHttpUrl(request.notify_url)) return this.refuse('PARAM_ERROR', 'notify_url 不合法')
    if (!/^[\w|*-]{1,32}$/.test(request.out_trade_no!)) {
      return this.refuse('PARAM_ERROR', 'out_trade_no 不合法')
    }

    const now = this.clock.now()
    let closesAt: number | null = null
    if (request.time_expire) {
      closesAt = fromChinaTime(request.time_expire)
      if (closesAt === null) return this.refuse('PARAM_ERROR', 'time_expire 格式不正确')
    }
    const seen = this.tradeByNo(request.out_trade_no!, now)
    if (seen) {
      if (seen.paid) return this.refuse('ORDERPAID', '该订单已支付')
      if (seen.closesAt !== null && seen.closesAt <= now) {
        return this.refuse('ORDERCLOSED', '当前订单已关闭，请重新下单')
      }
      // The same order asked again; anything but the nonce and the payer's address changed is a
      // different order under a number already used.
      if (
        String(seen.totalFee) !== request.total_fee ||
        seen.body !== request.body ||
        seen.timeExpire !== (request.time_expire ?? null)
      ) {
        return this.refuse('INVALID_REQUEST', '201 商户订单号重复')
      }
      // Its prepay id lapsed (two hours) while the order is still open: a new one is issued.
      if (seen.expiresAt <= now) this.reissue(seen, now)
      return this.prepayReply(seen.prepayId)
    }
    if (closesAt !== null && closesAt < now + MIN_EXPIRE_MS) {
      return this.refuse('PARAM_ERROR', 'time_expire时间过短，刷卡至少1分钟，其他5分钟')
    }
    const trade: SandboxTrade = {
      prepayId: this.prepayId(now),
      outTradeNo: request.out_trade_no!,
      body: request.body!,
      totalFee: Number(request.total_fee),
      notifyUrl: request.notify_url!,
      openid: request.openid ?? null,
      createdAt: now,
      expiresAt: Math.min(now + PREPAY_TTL_MS, closesAt ?? Infinity),
      closesAt,
      timeExpire: request.time_expire ?? null,
      paid: null,
    }
    this.remember(trade)
    return this.prepayReply(trade.prepayId)
  }

  /** A trade by prepay id, while its prepay id is good (or once paid). */
  trade(prepayId: string): SandboxTrade | undefined {
    const trade = this.trades.get(prepayId)
    if (!trade) return undefined
    if (!trade.paid && trade.expiresAt <= this.clock.now()) return undefined
    return trade
  }

  /**
   * The payer confirmed on the payment sheet: the trade is paid and its notice posted to the
   * merchant (awaited once, so the page the payer returns to usually finds the order paid; retried
   * later if the merchant did not acknowledge it). A second confirmation changes nothing.
   */
  async confirm(prepayId: string): Promise<ConfirmResult> {
    const trade = this.trade(prepayId)
    if (!trade) return { kind: 'unknown' }
    if (trade.paid) return { kind: 'already_paid', trade }
    const now = this.clock.now()
    trade.paid = { transactionId: this.transactionId(now), at: now, delivered: false }
    await this.notify(trade, 0)
    return { kind: 'paid', trade }
  }

  /** The notice document for a paid trade, signed as the platform signs it (a fresh nonce each time). */
  notice(trade: SandboxTrade): string {
    if (!trade.paid) throw new Error(`trade ${trade.outTradeNo} is not paid`)
    return toXml(
      signed(
        {
          appid: this.merchant.appId,
          mch_id: this.merchant.mchId,
          nonce_str: wxNonce(),
          result_code: 'SUCCESS',
          return_code: 'SUCCESS',
          openid: trade.openid ?? undefined,
          is_subscribe: 'N',
          trade_type: 'JSAPI',
          bank_type: 'OTHERS',
          total_fee: trade.totalFee,
          cash_fee: trade.totalFee,
          fee_type: 'CNY',
          transaction_id: trade.paid.transactionId,
          out_trade_no: trade.outTradeNo,
          time_end: chinaTime(trade.paid.at),
        },
        this.merchant.key,
      ),
    )
  }

  /** Stops retrying (the app is closing). */
  close(): void {
    this.closed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
  }

  private async notify(trade: SandboxTrade, attempt: number): Promise<void> {
    if (this.closed || !trade.paid || trade.paid.delivered) return
    try {
      const reply = parseXml(await this.deliver(trade.notifyUrl, this.notice(trade)))
      if (reply?.return_code === 'SUCCESS') {
        trade.paid.delivered = true
        return
      }
      this.options.log?.warn(
        { outTradeNo: trade.outTradeNo, reply: reply?.return_msg },
        'sandbox pay: merchant refused the notice',
      )
    } catch (error) {
      this.options.log?.warn(
        { outTradeNo: trade.outTradeNo, err: error },
        'sandbox pay: notice not delivered',
      )
    }
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
    const delay = delays[attempt]
    if (delay === undefined) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.notify(trade, attempt + 1).catch((error: unknown) =>
        this.options.log?.error({ err: error }, 'sandbox pay: notice retry failed'),
      )
    }, delay)
    timer.unref()
    this.timers.add(timer)
  }

  /**
   * The trade a number names. An unpaid one the platform no longer remembers is forgotten: without
   * `time_expire`, once its prepay id lapsed (asked again, it is a new order); a closed one a day
   * after it closed (until then its number is refused).
   */
  private tradeByNo(outTradeNo: string, now: number): SandboxTrade | undefined {
    const prepayId = this.byTradeNo.get(outTradeNo)
    const trade = prepayId === undefined ? undefined : this.trades.get(prepayId)
    if (!trade || trade.paid) return trade
    const forgetAt =
      trade.closesAt === null ? trade.expiresAt + PREPAY_TTL_MS : trade.closesAt + CLOSED_KEPT_MS
    if (forgetAt <= now) {
      this.trades.delete(trade.prepayId)
      this.byTradeNo.delete(outTradeNo)
      return undefined
    }
    return trade
  }

  /** A new prepay id for an open trade whose last one lapsed; the old one is gone. */
  private reissue(trade: SandboxTrade, now: number): void {
    this.trades.delete(trade.prepayId)
    trade.prepayId = this.prepayId(now)
    trade.expiresAt = Math.min(now + PREPAY_TTL_MS, trade.closesAt ?? Infinity)
    this.trades.set(trade.prepayId, trade)
    this.byTradeNo.set(trade.outTradeNo, trade.prepayId)
  }

  private prepayId(now: number): string {
    return `wx${chinaTime(now)}${randomBytes(12).toString('hex')}`
  }

  private remember(trade: SandboxTrade): void {
    while (this.trades.size >= MAX_TRADES) {
      const oldest = this.trades.values().next().value
      if (!oldest) break
      this.trades.delete(oldest.prepayId)
      this.byTradeNo.delete(oldest.outTradeNo)
    }
    this.trades.set(trade.prepayId, trade)
    this.byTradeNo.set(trade.outTradeNo, trade.prepayId)
  }

  /** 28 digits, as the platform's are: a fixed head, the China date, 16 random digits. */
  private transactionId(now: number): string {
    let digits = ''
    while (digits.length < 16) digits += String(randomInt(10))
    return `4200${chinaTime(now).slice(0, 8)}${digits}`
  }

  private prepayReply(prepayId: string): string {
    return this.reply({ result_code: 'SUCCESS', prepay_id: prepayId, trade_type: 'JSAPI' })
  }

  /** A business refusal: the request was read and signed right, the order cannot be made. */
  private refuse(errCode: string, description: string): string {
    return this.reply({ result_code: 'FAIL', err_code: errCode, err_code_des: description })
  }

  /** A signed SUCCESS reply (return_code: the request itself was understood). */
  private reply(fields: WxInput): string {
    return toXml(
      signed(
        {
          return_code: 'SUCCESS',
          return_msg: 'OK',
          appid: this.merchant.appId,
          mch_id: this.merchant.mchId,
          nonce_str: wxNonce(),
          ...fields,
        },
        this.merchant.key,
      ),
    )
  }

  /** The request could not be taken at all (unsigned, as the platform's are). */
  private fail(message: string): string {
    return toXml({ return_code: 'FAIL', return_msg: message })
  }
}
