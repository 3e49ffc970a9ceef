import type { AddressInfo } from 'node:net'
import type { WechatPayRequest } from '@numisma/contracts/payment'
import type { WechatPaySettings } from '../../platform/config'
import { AppError } from '../../platform/errors'
import {
  chinaTime,
  parseXml,
  signed,
  toXml,
  wxNonce,
  wxSign,
  wxVerify,
  type WxFields,
} from './wechat-pay-protocol'

/** The merchant as the platform knows it (platform/config.ts `WechatPaySettings`, resolved). */
export interface WechatMerchant {
  appId: string
  mchId: string
  key: string
  /** Where the platform posts notices (resolved when asked: the port may be known only later). */
  notifyUrl: () => string
}

/**
 * Sends one signed document to the platform's pay API (`path` below its base URL, e.g.
 * `/pay/unifiedorder`) and returns the reply's body. Over HTTP in a running server; tests that
 * drive the app with `inject` route it to the sandbox through `inject` instead.
 */
export type WechatPayTransport = (path: string, xml: string) => Promise<string>

/** A transport over HTTP to `base()` (read per call), failing after `timeoutMs`. */
export function httpTransport(base: () => string, timeoutMs = 10_000): WechatPayTransport {
  return async (path, xml) => {
    const response = await fetch(`${base()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: xml,
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!response.ok) throw new Error(`pay gateway answered HTTP ${response.status}`)
    return response.text()
  }
}

/** What we ask the platform to collect. */
export interface PrepayOrder {
  /** Ours, unique per merchant: `P<payment id>` or `R<recharge id>`. */
  outTradeNo: string
  /** What the payer sees on the payment sheet (at most 128 bytes). */
  body: string
  /** Fen. */
  totalFee: number
  /** The payer's address as we saw it. */
  clientIp: string
  /** When the platform closes the trade (`time_expire`); a closed trade cannot be paid. */
  expiresAt?: number
  /** Our user paying: their open id under the pay app, when linked, is JSAPI's `openid`. */
  payerId?: number
}

/**
 * The open id a user has under an app of the messaging platform, when the account is linked to
 * one (modules/wechat, passed in app.ts): JSAPI pay names the payer by it.
 */
export type PayerOpenid = (appId: string, userId: number) => Promise<string | undefined>

/** A payment notice whose sign, merchant and fields have been checked. */
export interface PayNotice {
  outTradeNo: string
  transactionId: string
  totalFee: number
  /** SUCCESS: the money was taken; FAIL: the payment failed. */
  paid: boolean
}

export type NoticeCheck = { ok: true; notice: PayNotice } | { ok: false; reason: string }

/** The platform's `body` is at most 128 bytes of UTF-8. */
function clip(text: string, bytes = 128): string {
  let out = ''
  for (const char of text) {
    if (Buffer.byteLength(out + char, 'utf8') > bytes) break
    out += char
  }
  return out
}

/**
 * Our side of the messaging platform's JSAPI pay (spec §3): asks the platform for a prepay id
 * (`unifiedorder`), builds the signed pay request the page hands to the platform's bridge, and
 * checks the platform's notices. `merchant` null: the channel is not configured (production
 * without a merchant key) and every call refuses with PAY_CHANNEL_FAILED.
 */
export class WechatPayClient {
  constructor(
    private readonly merchant: WechatMerchant | null,
    private readonly transport: WechatPayTransport,
    private readonly payerOpenid?: PayerOpenid,
  ) {}

  get configured(): boolean {
    return this.merchant !== null
  }

  private merchantOrThrow(): WechatMerchant {
    if (!this.merchant) throw new AppError('PAY_CHANNEL_FAILED', { reason: 'not configured' })
    return this.merchant
  }

  /**
   * `POST /pay/unifiedorder`: the prepay id of a JSAPI payment. Asking again for the same
   * `out_trade_no` with the same fields gives the same prepay id while it is good, so a retry is
   * safe; other fields under the same number are a duplicate (201), and a trade closed at its
   * `time_expire` is refused (ORDERCLOSED) — a later attempt needs a new number. Any failure — the
   * platform unreachable, a refusal, a reply not signed with our key — is PAY_CHANNEL_FAILED.
   */
  async prepay(order: PrepayOrder): Promise<string> {
    const merchant = this.merchantOrThrow()
    const openid =
      order.payerId === undefined
        ? undefined
        : await this.payerOpenid?.(merchant.appId, order.payerId)
    const request = signed(
      {
        appid: merchant.appId,
        mch_id: merchant.mchId,
        nonce_str: wxNonce(),
        body: clip(order.body),
        out_trade_no: order.outTradeNo,
        total_fee: order.totalFee,
        spbill_create_ip: order.clientIp,
        notify_url: merchant.notifyUrl(),
        trade_type: 'JSAPI',
        openid,
        time_expire: order.expiresAt === undefined ? undefined : chinaTime(order.expiresAt),
        sign_type: 'MD5',
      },
      merchant.key,
    )
    let reply: WxFields | null
    try {
      reply = parseXml(await this.transport('/pay/unifiedorder', toXml(request)))
    } catch (error) {
      throw new AppError('PAY_CHANNEL_FAILED', { reason: 'unreachable', cause: String(error) })
    }
    if (!reply || reply.return_code !== 'SUCCESS') {
      throw new AppError('PAY_CHANNEL_FAILED', { reason: reply?.return_msg ?? 'unreadable reply' })
    }
    if (!wxVerify(reply, merchant.key) || reply.appid !== merchant.appId) {
      throw new AppError('PAY_CHANNEL_FAILED', { reason: 'reply not signed by the platform' })
    }
    if (reply.result_code !== 'SUCCESS' || !reply.prepay_id) {
      throw new AppError('PAY_CHANNEL_FAILED', {
        reason: reply.err_code ?? 'refused',
        message: reply.err_code_des,
      })
    }
    return reply.prepay_id
  }

  /**
   * The pay request of spec §3 for a prepay id. Its `sign` is the platform's `paySign`: the MD5
   * sign over `appId`, `timeStamp`, `nonceStr`, `package` and `signType` (the names the
   * platform's bridge takes), so the page passes the values on under those names.
   */
  payRequest(prepayId: string, nowMs: number): WechatPayRequest {
    const merchant = this.merchantOrThrow()
    const timestamp = String(Math.floor(nowMs / 1000))
    const noncestr = wxNonce()
    const packages = `prepay_id=${prepayId}`
    const sign = wxSign(
      {
        appId: merchant.appId,
        timeStamp: timestamp,
        nonceStr: noncestr,
        package: packages,
        signType: 'MD5',
      },
      merchant.key,
    )
    return { appid: merchant.appId, timestamp, noncestr, packages, signType: 'MD5', sign }
  }

  /**
   * Checks a payment notice: a platform document, signed with our key, for our app and merchant,
   * naming our trade number, the platform's transaction and the amount. Whether that amount is
   * what we asked for is the payment's business (the caller's).
   */
  checkNotice(body: string): NoticeCheck {
    if (!this.merchant) return { ok: false, reason: 'not configured' }
    const fields = parseXml(body)
    if (!fields) return { ok: false, reason: 'not a platform document' }
    if (fields.return_code !== 'SUCCESS') return { ok: false, reason: 'not a notice' }
    if (!wxVerify(fields, this.merchant.key)) return { ok: false, reason: 'bad sign' }
    if (fields.appid !== this.merchant.appId || fields.mch_id !== this.merchant.mchId) {
      return { ok: false, reason: 'another merchant' }
    }
    const { out_trade_no: outTradeNo, transaction_id: transactionId, total_fee: fee } = fields
    const paid = fields.result_code === 'SUCCESS'
    if (!outTradeNo || !fee || !/^\d{1,12}$/.test(fee) || (paid && !transactionId)) {
      return { ok: false, reason: 'fields missing' }
    }
    return {
      ok: true,
      notice: { outTradeNo, transactionId: transactionId ?? '', totalFee: Number(fee), paid },
    }
  }
}

/** Where the sandbox is mounted on a server that runs it. */
export const WXPAY_SANDBOX_PREFIX = '/svc/sandbox/wxpay'
/** Where this server reads the platform's notices (outside the signed main service). */
export const WXPAY_NOTIFY_PATH = '/svc/main/pay/notify/wechat'

/** `http://127.0.0.1:<port>` of a listening server; throws before it listens. */
export function listeningOrigin(server: { address(): AddressInfo | string | null }): string {
  const address = server.address()
  if (address === null || typeof address === 'string')
    throw new Error('the server is not listening')
  return `http://127.0.0.1:${address.port}`
}

/**
 * The client for the configured platform: the real one at `gateway`, or this server's sandbox
 * (reached over HTTP on its own port unless a transport is given). Without a merchant key, or
 * with neither a gateway nor a sandbox, the channel is off.
 */
export function wechatPayClient(
  settings: WechatPaySettings & { transport?: WechatPayTransport | undefined },
  self: () => string,
  payerOpenid?: PayerOpenid,
): WechatPayClient {
  const { key, gateway, sandbox } = settings
  const merchant =
    key !== undefined && (gateway !== undefined || sandbox)
      ? {
          appId: settings.appId,
          mchId: settings.mchId,
          key,
          notifyUrl: () => settings.notifyUrl ?? `${self()}${WXPAY_NOTIFY_PATH}`,
        }
      : null
  return new WechatPayClient(
    merchant,
    settings.transport ?? httpTransport(() => gateway ?? `${self()}${WXPAY_SANDBOX_PREFIX}`),
    payerOpenid,
  )
}
