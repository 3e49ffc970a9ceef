import type { StaffMember, StaffRole } from '@numisma/contracts/staff'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { baseUrl, dataOf, E2E_ADMIN_PASSWORD } from './fixtures'
import { staffLogin } from './global-setup'
import { expect, inject } from 'vitest'

/** The operator console is a desk application: journeys look at it at 1280×800. */
export const DESK = { width: 1280, height: 800 }

let staffSeq = 0

/**
 * A staff account holding only `roles`, opened by the run's admin (POST /admin/staff-members);
 * its username and password come back for a sign-in.
 */
export async function createStaffMember(
  roles: StaffRole[],
): Promise<{ member: StaffMember; password: string }> {
  const password = `console-pass-${process.pid}`
  const member = await dataOf<StaffMember>(
    fetch(`${baseUrl()}/svc/main/admin/staff-members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: inject('staffCookie') },
      body: JSON.stringify({ username: `e2e-${process.pid}-${staffSeq++}`, roles, password }),
    }),
  )
  return { member, password }
}

/**
 * A desk-sized browser context signed in to the console: as the run's admin, or as a new staff
 * member holding only `roles` (the session cookie set as the sign-in form's answer sets it).
 */
export async function consoleContext(
  browser: Browser,
  roles?: StaffRole[],
): Promise<{ context: BrowserContext; page: Page; username: string }> {
  let username = 'admin'
  let password = E2E_ADMIN_PASSWORD
  if (roles) {
    const created = await createStaffMember(roles)
    username = created.member.username
    password = created.password
  }
  const cookie = await staffLogin(baseUrl(), password, username)
  const context = await browser.newContext({
    viewport: DESK,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    baseURL: baseUrl(),
  })
  const [name, value] = cookie.split(';')[0]!.split('=') as [string, string]
  const { hostname } = new URL(baseUrl())
  await context.addCookies([
    { name, value, domain: hostname, path: '/svc/main/admin', httpOnly: true, sameSite: 'Strict' },
  ])
  return { context, page: await context.newPage(), username }
}

/** The open dialog's OK button (antd spaces a two-character label: 确 定). */
export const okButton = (page: Page) =>
  page
    .getByRole('dialog')
    .getByRole('button', { name: '确 定' })
    .or(page.getByRole('dialog').getByRole('button', { name: '确定' }))

/**
 * Clicks `target` once the antd overlay it is in has finished coming in. antd zooms its modals
 * and popconfirms in (and slides drawers and dropdowns); under load a click taken mid-zoom pressed
 * on the button and was released beside it, on the modal's wrap, which is no click at all: the
 * form was never sent (a CI failure, and 3 of 11 runs under load at two dialogs). Playwright's own
 * check, the same box over two frames, let that click through. The overlay is steady when no
 * ancestor carries rc-motion's appear/enter classes (set from before the animation starts, a few
 * frames of `opacity: 0` at full size, until it ends) and no finite CSS animation or transition
 * runs on an ancestor. Movement caused by a neighbour (an error line leaving above) and
 * antd-mobile's script-driven springs are not seen: wait for those by what they show.
 */
export async function clickSteady(target: Locator): Promise<void> {
  await whenSteady(target)
  await target.click()
}

/** Resolves once `target`'s overlay has finished coming in ({@link clickSteady}). */
export async function whenSteady(target: Locator): Promise<void> {
  await target.waitFor()
  await expect
    .poll(() =>
      target.evaluate((element) => {
        if (element.closest('[class*="-appear"], [class*="-enter"]')) return 'in motion'
        const moving = document.getAnimations().filter((animation) => {
          const moved = (animation.effect as KeyframeEffect | null)?.target
          const finite = animation.effect?.getTiming().iterations !== Infinity
          return finite && animation.playState !== 'finished' && !!moved?.contains(element)
        })
        return moving.length ? 'animating' : 'steady'
      }),
    )
    .toBe('steady')
}

/** Presses the open dialog's OK once the dialog stands still ({@link clickSteady}). */
export const pressOk = (page: Page): Promise<void> => clickSteady(okButton(page))

/**
 * The table row holding the tag of order #id. The tag is matched whole: a row's text runs its
 * cells together (#1 then 2026-… reads #12026-…), so a match on the row would also take #12.
 */
export const orderRow = (page: Page, id: number) =>
  page.locator('tr').filter({ has: page.locator('.ant-tag', { hasText: new RegExp(`^#${id}$`) }) })
