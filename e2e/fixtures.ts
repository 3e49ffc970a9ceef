import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { inject } from 'vitest'

/** Journeys run in Debian's Chromium at a phone's size (375×812), as a collector would. */
export const PHONE = { width: 375, height: 812 }

export const baseUrl = (): string => inject('baseUrl')

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-quic',
      '--no-first-run',
      '--disable-sync',
    ],
  })
}

export function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    timezoneId: 'America/New_York', // China time must not depend on the phone's zone
    baseURL: baseUrl(),
  })
}

let mobileSeq = 0
export const freshMobile = (): string =>
  `137${String(process.pid % 10_000).padStart(4, '0')}${String(mobileSeq++).padStart(4, '0')}`

/** Signs in through the real passport page, reading the sandbox SMS code it shows. */
export async function signIn(
  page: Page,
  wanted = '/ucenter',
  mobile = freshMobile(),
): Promise<string> {
  await page.goto(`/passport?redirect=${encodeURIComponent(wanted)}`)
  await fillSignIn(page, mobile)
  await page.waitForURL((url) => url.pathname + url.search === wanted)
  return mobile
}

export async function fillSignIn(page: Page, mobile: string): Promise<void> {
  await page.locator('.passport input[type=tel]').fill(mobile)
  await page.locator('.passport-send').click()
  const hint = page.locator('.passport-dev-code')
  await hint.waitFor()
  const code = /(\d{6})/.exec((await hint.textContent()) ?? '')?.[1]
  if (!code) throw new Error('no sandbox code shown')
  await page.locator('.passport input[autocomplete=one-time-code]').fill(code)
  await page.locator('.passport-agreement .adm-checkbox').click()
  await page.locator('.passport button[type=submit]').click()
}
