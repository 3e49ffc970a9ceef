import { formatFen } from '@numisma/contracts/money'
import type { SandboxTrade } from './wxpay-sandbox'

export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** Resolves paths the way a browser does; only its origin matters. */
const PATH_BASE = 'http://path.invalid'

/**
 * Where the payer goes back to: a path on this site, or a page on this host or on this machine
 * (the web app's dev server runs on another port). Anything else is refused — the sandbox is not
 * an open redirect. Browsers drop tabs and newlines from a link and read `\\` as `/`, so
 * `/\t/evil.example` would leave the site: control characters and backslashes are refused, and a
 * path must still resolve to this origin (answered as resolved, so the browser gets what was
 * checked).
 */
export function safeRedirect(redirect: string | undefined, requestHost: string): string | null {
  if (redirect === undefined || redirect === '') return '/'
  if (redirect.length > 2048) return null
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(redirect)) return null
  if (redirect.startsWith('/')) {
    try {
      const url = new URL(redirect, PATH_BASE)
      return url.origin === PATH_BASE ? `${url.pathname}${url.search}${url.hash}` : null
    } catch {
      return null
    }
  }
  try {
    const url = new URL(redirect)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
    const sameHost = url.hostname === requestHost.replace(/:\d+$/, '')
    return local || sameHost ? url.toString() : null
  } catch {
    return null
  }
}

/** The page the payer returns to, told how the payment sheet ended (`wxpay=ok|cancel`). */
export function withResult(redirect: string, result: 'ok' | 'cancel'): string {
  const [beforeHash, hash] = redirect.split(/#(.*)/s, 2) as [string, string | undefined]
  const joined = `${beforeHash}${beforeHash.includes('?') ? '&' : '?'}wxpay=${result}`
  return hash === undefined ? joined : `${joined}#${hash}`
}

const STYLE = `
  body { margin: 0; font-family: -apple-system, "PingFang SC", "Microsoft YaHei", sans-serif;
    background: #ededed; color: #111; }
  main { max-width: 420px; margin: 0 auto; padding: 24px 16px; box-sizing: border-box; }
  .tag { margin: 0 0 24px; text-align: center; font-size: 12px; color: #fa5151; }
  .what { margin: 0; text-align: center; font-size: 15px; color: #555; }
  h1 { margin: 8px 0 24px; text-align: center; font-size: 40px; font-weight: 500; }
  dl { margin: 0 0 32px; padding: 12px 16px; background: #fff; border-radius: 8px;
    display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; font-size: 14px; }
  dt { color: #888; } dd { margin: 0; text-align: right; word-break: break-all; }
  button, .cancel { display: block; width: 100%; box-sizing: border-box; padding: 12px;
    border-radius: 8px; font-size: 17px; text-align: center; text-decoration: none; }
  button { border: 0; background: #07c160; color: #fff; }
  .cancel { margin-top: 12px; background: #fff; color: #111; }
  p.note { text-align: center; color: #555; }
`

/** A sandbox page standing for one of the platform's phone screens: its title, styles and body. */
export function sandboxPage(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body><main>${body}</main></body>
</html>`
}

const page = (title: string, body: string): string => sandboxPage(title, STYLE, body)

/**
 * The payment sheet the platform shows inside its app, as a tiny page: what is paid and to whom,
 * 确认支付 (which POSTs to `cashier/confirm`) and 取消 (back to the page, `wxpay=cancel`).
 */
export function cashierPage(trade: SandboxTrade, merchantId: string, redirect: string): string {
  const amount = `¥${formatFen(trade.totalFee)}`
  return page(
    '微信支付（沙箱）',
    `<p class="tag">沙箱 · 模拟微信支付，不会扣款</p>
<p class="what">${escapeHtml(trade.body)}</p>
<h1>${escapeHtml(amount)}</h1>
<dl>
  <dt>收款方</dt><dd>泉藏拍卖（商户号 ${escapeHtml(merchantId)}）</dd>
  <dt>商户订单号</dt><dd>${escapeHtml(trade.outTradeNo)}</dd>
</dl>
<form method="post" action="cashier/confirm">
  <input type="hidden" name="prepay_id" value="${escapeHtml(trade.prepayId)}">
  <input type="hidden" name="redirect" value="${escapeHtml(redirect)}">
  <button type="submit">确认支付</button>
</form>
<a class="cancel" href="${escapeHtml(withResult(redirect, 'cancel'))}">取消</a>`,
  )
}

/** A sheet that cannot be shown: unknown or expired prepay id, a refused redirect. */
export function cashierProblem(message: string, back: string | null): string {
  const link = back === null ? '' : `<a class="cancel" href="${escapeHtml(back)}">返回</a>`
  return page(
    '微信支付（沙箱）',
    `<p class="tag">沙箱 · 模拟微信支付</p><p class="note">${escapeHtml(message)}</p>${link}`,
  )
}
