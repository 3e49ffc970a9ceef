import { COOKIE } from '@numisma/contracts/cookies'
import { errorText } from '@numisma/contracts/errors'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillSignIn, freshMobile, launchBrowser, screenshot } from './fixtures'
import { messagingAppContext } from './tools/messaging-app'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser.close())

const AUTHORIZE_PATH = '/svc/sandbox/wx/connect/oauth2/authorize'
const WANTED = '/myOrder?tab=pay'

/** Every URL the page's main frame went to, in order. */
function recordNavigations(page: Page): string[] {
  const seen: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url())
  })
  return seen
}

async function userIdOf(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies()
  return cookies.find((c) => c.name === COOKIE.userId)?.value
}

/** The platform's consent sheet: the sandbox user says who they are and taps 允许 or 拒绝. */
async function consent(page: Page, name: string, decision: '允许' | '拒绝'): Promise<void> {
  await page.waitForURL((url) => url.pathname === AUTHORIZE_PATH)
  const url = new URL(page.url())
  expect(url.searchParams.get('scope')).toBe('snsapi_userinfo')
  expect(url.searchParams.get('redirect_uri')).toMatch(/\/wx\/callback\?redirect=/)
  await page.locator('#name').fill(name)
  await screenshot(page, `wx-consent-${decision === '允许' ? 'allow' : 'deny'}`)
  await page.getByRole('button', { name: decision, exact: true }).click()
}

const onWanted = (url: URL): boolean =>
  url.pathname === '/myOrder' && url.searchParams.get('tab') === 'pay'

describe('signing in inside the messaging app', () => {
  it('a first-time user binds a mobile number, a returning one is signed in at once, and a spent code signs nobody in', async () => {
    const sandboxName = `微信测试${process.pid}${Date.now() % 100_000}`
    const mobile = freshMobile()

    // First visit: an auth route sends the anonymous user to the platform's consent sheet.
    const first = await messagingAppContext(browser)
    const page = await first.newPage()
    const visited = recordNavigations(page)
    await page.goto(WANTED)
    await consent(page, sandboxName, '允许')

    // No account has this open id yet: bind a mobile number on the sign-in app's binding screen.
    await page.waitForURL((url) => url.pathname === '/passport')
    expect(new URL(page.url()).searchParams.get('bind')).toBe('1')
    expect(page.url()).not.toMatch(/bindToken|token=/i)
    const greeting = page.locator('[data-testid=passport-bind]')
    await greeting.waitFor()
    expect(await greeting.innerText()).toContain(`微信用户 ${sandboxName}，请绑定手机号`)
    await screenshot(page, 'wx-bind')
    await fillSignIn(page, mobile)
    await page.waitForURL(onWanted)
    // The signed-in list answered (a new account has no order waiting for payment).
    await page.getByText('暂无待付款的订单').waitFor()
    const userId = await userIdOf(first)
    expect(userId).toBeTruthy()
    await screenshot(page, 'wx-bind-landed')
    const callback = visited.find((u) => new URL(u).pathname === '/wx/callback')
    expect(callback).toBeDefined()
    const spent = new URL(callback ?? '')
    expect(spent.searchParams.get('code')).toBeTruthy()
    await first.close()

    // Second visit, a fresh browser: consent again (the sandbox remembers by cookie), then the
    // linked open id signs the same account in, with no binding screen on the way.
    const second = await messagingAppContext(browser)
    const again = await second.newPage()
    const visitedAgain = recordNavigations(again)
    await again.goto(WANTED)
    await consent(again, sandboxName, '允许')
    await again.waitForURL(onWanted)
    await again.getByText('暂无待付款的订单').waitFor()
    expect(visitedAgain.some((u) => new URL(u).pathname === '/passport')).toBe(false)
    expect(await userIdOf(second)).toBe(userId)
    await second.close()

    // The first visit's code again, in a tab holding that visit's state: the server refuses the
    // second exchange, the page says so and nobody is signed in.
    const replay = await messagingAppContext(browser)
    const state = spent.searchParams.get('state') ?? ''
    await replay.addInitScript(
      `sessionStorage.setItem('numisma.wx.state', ${JSON.stringify(state)})`,
    )
    const replayed = await replay.newPage()
    await replayed.goto(spent.pathname + spent.search)
    const refusal = replayed.locator('[data-testid=wx-callback][data-outcome=failed]')
    await refusal.waitFor()
    expect(await refusal.innerText()).toContain(errorText('WX_CODE_INVALID'))
    expect(await userIdOf(replay)).toBeUndefined()
    await screenshot(replayed, 'wx-callback-spent-code')
    await replay.close()
  })

  it('a code this tab did not ask for is refused before reaching the server, declining says what to do, and an expired binding offers authorising again', async () => {
    const context = await messagingAppContext(browser)
    const page = await context.newPage()
    await page.goto('/wx/callback?code=forged-code&state=not-ours&redirect=%2Fucenter')
    const forged = page.locator('[data-testid=wx-callback][data-outcome=forged]')
    await forged.waitFor()
    expect(await forged.innerText()).toContain('登录链接无效，请重新授权')
    expect(await userIdOf(context)).toBeUndefined()
    await screenshot(page, 'wx-callback-forged')

    // 重新授权 starts the round trip again; this time the user declines on the platform's sheet.
    await page.getByRole('button', { name: '重新授权' }).click()
    await consent(page, `拒绝者${process.pid}`, '拒绝')
    const refused = page.locator('[data-testid=wx-callback][data-outcome=refused]')
    await refused.waitFor()
    expect(await refused.innerText()).toContain('您已拒绝微信授权')
    await screenshot(page, 'wx-callback-refused')
    await page.getByRole('button', { name: '返回首页' }).click()
    await page.waitForURL((url) => url.pathname === '/')

    // A binding whose token the server no longer knows ends on 重新授权, not on a dead form.
    await page.evaluate(() =>
      sessionStorage.setItem(
        'numisma.wx.bind',
        JSON.stringify({ bindToken: 'expired-token', nickname: '过期用户', avatar: '' }),
      ),
    )
    await page.goto('/passport?redirect=%2Fucenter&bind=1')
    await fillSignIn(page, freshMobile())
    const expired = page.locator('[data-testid=passport-bind-expired]')
    await expired.waitFor()
    expect(await expired.innerText()).toContain('绑定已过期，请重新授权')
    expect(await userIdOf(context)).toBeUndefined()
    await screenshot(page, 'wx-bind-expired')
    await expired.getByRole('button', { name: '重新授权' }).click()
    await page.waitForURL((url) => url.pathname === AUTHORIZE_PATH)
    await context.close()
  })
})
