import { createHash } from 'node:crypto'
import type { MpScope } from '../wechat/mp-protocol'
import { escapeHtml, sandboxPage } from './cashier-page'
import { type AuthorizeProblem, SANDBOX_IDENTITY_MAX } from './mp-sandbox'

/**
 * The pages the platform shows in its app's browser during web authorisation, as the sandbox's:
 * the consent sheet (account, what it asks for, 允许 / 拒绝) and the "Oops" page for a bad request.
 * Phone-sized and in Chinese, as the platform's are; a tester's name stands for the platform user.
 */

const STYLE = `
  body { margin: 0; font-family: -apple-system, "PingFang SC", "Microsoft YaHei", sans-serif;
    background: #fff; color: #111; }
  main { max-width: 420px; margin: 0 auto; padding: 16px 24px 32px; box-sizing: border-box;
    min-height: 100vh; display: flex; flex-direction: column; }
  .tag { margin: 0 0 32px; text-align: center; font-size: 12px; color: #fa5151; }
  .account { display: flex; align-items: center; gap: 12px; margin-bottom: 24px; }
  .logo { width: 40px; height: 40px; border-radius: 50%; background: #07c160; color: #fff;
    display: flex; align-items: center; justify-content: center; font-size: 18px; }
  .account strong { font-size: 17px; font-weight: 500; }
  h1 { margin: 0 0 16px; font-size: 20px; font-weight: 500; }
  .scope { margin: 0 0 32px; padding: 16px 0; border-top: 1px solid #eee;
    border-bottom: 1px solid #eee; font-size: 15px; color: #333; }
  .scope::before { content: '✓'; color: #07c160; margin-right: 8px; }
  form { flex: 1; display: flex; flex-direction: column; }
  label { display: block; font-size: 14px; color: #888; margin-bottom: 8px; }
  input[type=text] { width: 100%; box-sizing: border-box; padding: 12px; font-size: 16px;
    border: 1px solid #ddd; border-radius: 8px; }
  .hint { margin: 8px 0 0; font-size: 12px; color: #aaa; word-break: break-all; }
  .actions { margin-top: auto; padding-top: 32px; display: flex; gap: 16px; }
  button { flex: 1; padding: 12px; border: 0; border-radius: 8px; font-size: 17px; }
  button[value=allow] { background: #07c160; color: #fff; }
  button[value=deny] { background: #f2f2f2; color: #07c160; }
  .oops { margin-top: 96px; text-align: center; }
  .oops h1 { font-size: 18px; }
  .oops p { color: #555; font-size: 15px; }
  .oops .code { color: #aaa; font-size: 13px; }
`

const page = (title: string, body: string): string => sandboxPage(title, STYLE, body)

/** What the consent form sends back (with the tester's name and 允许/拒绝). */
export interface ConsentFields {
  appid: string
  redirect_uri: string
  scope: MpScope
  state: string | undefined
}

const SCOPE_TEXT: Record<MpScope, string> = {
  snsapi_userinfo: '获得你的公开信息（昵称、头像）',
  snsapi_base: '获得你的身份标识（仅用于识别你）',
}

/**
 * The consent sheet. The name field is the sandbox's own: the platform knows who is signed in to
 * its app; here the tester says who they are (the same name is the same platform user).
 */
export function consentPage(appName: string, fields: ConsentFields, knownName: string): string {
  const hidden = (name: string, value: string | undefined): string =>
    value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`
  return page(
    '微信授权（沙箱）',
    `<p class="tag">沙箱 · 模拟微信网页授权</p>
<div class="account"><span class="logo">${escapeHtml(appName.slice(0, 1))}</span><strong>${escapeHtml(appName)}</strong></div>
<h1>申请获得以下权限</h1>
<p class="scope">${SCOPE_TEXT[fields.scope]}</p>
<form method="post" action="authorize/confirm" data-testid="wx-consent">
  ${hidden('appid', fields.appid)}
  ${hidden('redirect_uri', fields.redirect_uri)}
  ${hidden('response_type', 'code')}
  ${hidden('scope', fields.scope)}
  ${hidden('state', fields.state)}
  <label for="name">沙箱微信用户（昵称）</label>
  <input type="text" id="name" name="name" value="${escapeHtml(knownName)}" required
    maxlength="${SANDBOX_IDENTITY_MAX}" autocomplete="nickname" placeholder="例如：测试用户">
  <p class="hint">同一昵称即同一微信用户（同一 OpenID）。</p>
  <div class="actions">
    <button type="submit" name="decision" value="deny" formnovalidate>拒绝</button>
    <button type="submit" name="decision" value="allow">允许</button>
  </div>
</form>`,
  )
}

/**
 * What the platform's error page says for each refusal, in its words (and its number where the
 * platform is known to show one).
 */
const PROBLEM_TEXT: Record<AuthorizeProblem, { message: string; code?: string }> = {
  appid: { message: 'appid 参数错误' },
  redirect_uri: {
    message: 'redirect_uri 参数错误',
    code: '10003 redirect_uri域名与后台配置不一致',
  },
  response_type: { message: 'response_type 参数错误' },
  scope: { message: 'Scope 参数错误或没有 Scope 权限' },
  origin: { message: '请求来源不合法，请在授权页面上操作' },
}

export function authorizeProblemPage(problem: AuthorizeProblem): string {
  const text = PROBLEM_TEXT[problem]
  return page(
    '微信授权（沙箱）',
    `<p class="tag">沙箱 · 模拟微信网页授权</p>
<div class="oops" data-testid="wx-authorize-problem">
  <h1>Oops! Something went wrong:(</h1>
  <p>${escapeHtml(text.message)}</p>
  ${text.code === undefined ? '' : `<p class="code">${escapeHtml(text.code)}</p>`}
</div>`,
  )
}

const AVATAR_COLOURS = ['#07c160', '#10aeff', '#fa9d3b', '#576b95', '#e64340', '#8d6e63', '#6467f0']

/**
 * The sandbox user's avatar (`headimgurl`): a square in a colour and with a pattern taken from the
 * open id, so testers tell each other apart at a glance and it never changes for one user.
 */
export function avatarSvg(openid: string): string {
  const digest = createHash('sha256').update(openid, 'utf8').digest()
  const colour = AVATAR_COLOURS[digest[0]! % AVATAR_COLOURS.length]!
  const cells: string[] = []
  // A 5×5 pattern mirrored left to right, as identicons are: 15 bits decide it.
  for (let row = 0; row < 5; row += 1) {
    for (let col = 0; col < 3; col += 1) {
      const bit = row * 3 + col
      if ((digest[1 + (bit >> 3)]! >> (bit & 7)) & 1) {
        for (const x of new Set([col, 4 - col])) {
          cells.push(`<rect x="${16 + x * 20}" y="${16 + row * 20}" width="20" height="20"/>`)
        }
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="132" height="132" viewBox="0 0 132 132">
<rect width="132" height="132" fill="#f2f2f2"/><g fill="${colour}">${cells.join('')}</g></svg>`
}
