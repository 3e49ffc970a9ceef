import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppOptions } from '../../src/app'
import { MP_PATHS } from '../../src/modules/wechat/mp-protocol'
import { WX_SANDBOX_PREFIX } from '../../src/modules/wechat/mp-client'
import { SANDBOX_WECHAT_MP } from '../../src/platform/config'
import type { TestApp } from './app'

/** Where the platform sends the user back in tests (inject's host is `localhost`). */
export const TEST_CALLBACK = 'http://localhost/wx/callback'

/**
 * The messaging platform's API wired through `inject` for tests that never listen on a port: our
 * client's calls go to the sandbox's routes on `target` (attach it once built; another instance's
 * calls may go to the same sandbox), and every call is counted by path, so a test can prove what
 * reached the platform. `down` makes the platform unreachable.
 */
export function injectedWechatMp() {
  let target: FastifyInstance | undefined
  const calls = new Map<string, number>()
  /** `down`: the whole platform is unreachable; `downPath`: only its API at that path. */
  const state: { down: boolean; downPath?: string } = { down: false }
  const options: NonNullable<AppOptions['wechatMp']> = {
    // Real-time polls while another instance refreshes: short, so a test does not wait long.
    tokens: { pollMs: 5 },
    transport: async (path, query) => {
      if (!target) throw new Error('injectedWechatMp: attach the app first')
      calls.set(path, (calls.get(path) ?? 0) + 1)
      if (state.down || state.downPath === path) throw new Error('connect ECONNREFUSED')
      const res = await target.inject({
        method: 'GET',
        url: `${WX_SANDBOX_PREFIX}${path}?${query.toString()}`,
      })
      if (res.statusCode !== 200) throw new Error(`platform answered HTTP ${res.statusCode}`)
      return res.body
    },
  }
  return {
    options,
    state,
    /** How many calls reached the platform at `path` (MP_PATHS). */
    calls: (path: string) => calls.get(path) ?? 0,
    attach(app: FastifyInstance) {
      target = app
    },
  }
}

/**
 * A tester named `name` allows the official account on the sandbox's authorize page (scope
 * `snsapi_userinfo`); returns the code the platform sends back.
 */
export async function authorizeCode(t: TestApp, name: string): Promise<string> {
  const res = await t.inject({
    method: 'POST',
    url: `${WX_SANDBOX_PREFIX}${MP_PATHS.authorize}/confirm`,
    // Posted by the sandbox's own page, as a browser says (inject's host is localhost).
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
    payload: new URLSearchParams({
      appid: SANDBOX_WECHAT_MP.appId,
      redirect_uri: `${TEST_CALLBACK}?to=%2Fucenter`,
      response_type: 'code',
      scope: 'snsapi_userinfo',
      state: 'test-state',
      name,
      decision: 'allow',
    }).toString(),
  })
  if (res.statusCode !== 302) throw new Error(`authorize failed: ${res.statusCode} ${res.body}`)
  const code = new URL(String(res.headers.location)).searchParams.get('code')
  if (!code) throw new Error(`no code in ${String(res.headers.location)}`)
  return code
}

/** `GET /h5/auth/getWxOpenId/{code}`, signed anonymously like the page's call. */
export function getWxOpenId(
  t: TestApp,
  code: string,
  deviceId = 'wx-device',
): Promise<LightMyRequestResponse> {
  return t.call({
    method: 'GET',
    path: `/h5/auth/getWxOpenId/${encodeURIComponent(code)}`,
    deviceId,
  })
}

/** Sends an SMS code to `mobile` and binds the open id behind `bindToken` with it. */
export async function wxBind(
  t: TestApp,
  bindToken: string,
  mobile: string,
  deviceId = 'wx-device',
): Promise<LightMyRequestResponse> {
  t.clock.advance(61_000)
  const sent = await t.call({ method: 'POST', path: '/passport/sms', body: { mobile }, deviceId })
  if (sent.statusCode !== 200) throw new Error(`sms failed: ${sent.body}`)
  return t.call({
    method: 'POST',
    path: '/passport/wx-bind',
    body: { bindToken, mobile, code: t.sms.lastCodeFor(mobile), agreement: true },
    deviceId,
  })
}
