import { WxOpenIdResultSchema, type WxOpenIdResult } from '@numisma/contracts/wechat'
import { request } from '../../../lib/api-client'

/**
 * Exchanges the platform's code (once: the server refuses a second exchange). A linked open id
 * comes back signed in, the login cookies set. The page shows a refusal itself, so no toast. The
 * server's refusals (WX_UNAVAILABLE among them) bring their own text; a call that never got an
 * answer from it says so ('request failed'), not that the platform is unavailable.
 */
export function getWxOpenId(code: string): Promise<WxOpenIdResult> {
  return request<WxOpenIdResult>({
    method: 'GET',
    path: `/h5/auth/getWxOpenId/${encodeURIComponent(code)}`,
    defaultError: 'REQUEST_FAILED',
    schema: WxOpenIdResultSchema,
    silent: true,
  })
}

const exchanges = new Map<string, Promise<WxOpenIdResult>>()

/**
 * One exchange per code for the life of the page: React's StrictMode runs effects twice and a
 * re-render may ask again, but a second call with the same code would be refused by the server
 * and hide the first call's answer.
 */
export function exchangeWxCodeOnce(code: string): Promise<WxOpenIdResult> {
  let exchange = exchanges.get(code)
  if (!exchange) {
    exchange = getWxOpenId(code)
    exchanges.set(code, exchange)
  }
  return exchange
}
