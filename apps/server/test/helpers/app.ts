import { COOKIE } from '@numisma/contracts/cookies'
import { signedHeaders, osInfoHeader } from '@numisma/contracts/signing'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { type AppOptions, buildApp, MAIN_PREFIX, SEARCH_PREFIX } from '../../src/app'
import { SandboxSmsSender } from '../../src/modules/passport/sms-sender'
import { FakeClock } from '../../src/platform/clock'
import type { Database } from '../../src/platform/db'
import { loadPublicApps, type PublicApps } from '../../src/platform/public-apps'
import { SettingsRepository } from '../../src/platform/settings-repository'
import type { TestDatabase } from './databases'

export interface Session {
  userId: string
  id: string
  key: string
  sid: string
  mobile: string
  deviceId: string
}

export interface SignedCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Path after the service base, with an optional query string. */
  path: string
  service?: 'main' | 'search'
  body?: unknown
  as?: Session
  headers?: Record<string, string>
  deviceId?: string
}

export interface TestApp {
  app: FastifyInstance
  database: Database
  clock: FakeClock
  sms: SandboxSmsSender
  apps: PublicApps
  /** Signs like the web client and injects; `as` signs with a session's pair. */
  call(call: SignedCall): Promise<LightMyRequestResponse>
  /** Headers the web client would send for a call. */
  sign(call: SignedCall): Record<string, string>
  inject(options: InjectOptions): Promise<LightMyRequestResponse>
  signIn(mobile?: string): Promise<Session>
  close(): Promise<void>
}

let mobileCounter = 0
export const nextMobile = (): string =>
  `139${String(process.pid % 1000).padStart(3, '0')}${String(mobileCounter++).padStart(5, '0')}`

export async function createTestApp(
  kind: TestDatabase,
  overrides: Partial<AppOptions> = {},
): Promise<TestApp> {
  const database = await kind.open()
  const clock = new FakeClock(Date.now())
  const sms = new SandboxSmsSender()
  const app = await buildApp({
    database,
    clock,
    sms,
    env: 'development',
    webDist: '/nonexistent',
    rateLimit: { sms: 1000, smsPerCaller: 10_000, login: 1000, staffLogin: 1000 },
    ...overrides,
  })
  await app.ready()
  const apps = await loadPublicApps(new SettingsRepository(database.db))

  const sign = (c: SignedCall): Record<string, string> => {
    const pair = c.as ?? (c.service === 'search' ? apps.search : apps.h5)
    return signedHeaders({
      method: c.method,
      path: c.path,
      appId: pair.id,
      key: pair.key,
      deviceId: c.as?.deviceId ?? c.deviceId ?? 'test-device',
      signSecret: apps.signSecret,
      osInfo: osInfoHeader(),
      userId: c.as?.userId,
      now: clock.now(),
    })
  }

  const call = (c: SignedCall) =>
    app.inject({
      method: c.method,
      url: `${c.service === 'search' ? SEARCH_PREFIX : MAIN_PREFIX}${c.path}`,
      headers: { ...sign(c), ...c.headers },
      cookies: c.as ? { [COOKIE.sid]: c.as.sid } : {},
      ...(c.body === undefined ? {} : { payload: c.body as Record<string, unknown> }),
    })

  const signIn = async (mobile = nextMobile()): Promise<Session> => {
    const deviceId = `device-${mobile}`
    const sent = await call({ method: 'POST', path: '/passport/sms', body: { mobile }, deviceId })
    if (sent.statusCode !== 200) throw new Error(`sms failed: ${sent.body}`)
    const code = sms.lastCodeFor(mobile)
    const login = await call({
      method: 'POST',
      path: '/passport/login',
      body: { mobile, code, agreement: true },
      deviceId,
    })
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`)
    const data = login.json<{ data: Omit<Session, 'sid' | 'deviceId'> }>().data
    const sid = login.cookies.find((c) => c.name === COOKIE.sid)?.value
    if (!sid) throw new Error('no sid cookie')
    return { ...data, sid, deviceId }
  }

  return {
    app,
    database,
    clock,
    sms,
    apps,
    call,
    sign,
    inject: (o) => app.inject(o),
    signIn,
    close: async () => {
      await app.close()
      await database.close()
    },
  }
}
