import net, { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpcSignature } from '../src/modules/passport/aliyun-sms-protocol'
import {
  type AliyunSmsAccount,
  AliyunSmsSender,
  httpSmsTransport,
  type SmsTransport,
} from '../src/modules/passport/sms-sender'
import { SmsSandbox } from '../src/modules/sandbox/sms-sandbox'
import { FakeClock } from '../src/platform/clock'
import { assertProductionSecrets, loadConfig, SANDBOX_SMS_ACCOUNT } from '../src/platform/config'
import { createTestApp, nextMobile, type TestApp } from './helpers/app'
import { testDatabases } from './helpers/databases'

/**
 * Issue 15 finding 2 (ADR 028): production ran the sandbox SMS sender, which logged every code.
 * Production now needs a provider — Alibaba Cloud's `SendSms` — and its sender is tested against a
 * sandbox that checks the request as the provider does.
 */
const databases = await testDatabases()

const aliyunEnv = {
  SMS_PROVIDER: 'aliyun',
  SMS_ACCESS_KEY_ID: SANDBOX_SMS_ACCOUNT.accessKeyId,
  SMS_ACCESS_KEY_SECRET: SANDBOX_SMS_ACCOUNT.accessKeySecret,
  SMS_SIGN_NAME: SANDBOX_SMS_ACCOUNT.signName,
  SMS_TEMPLATE_CODE: SANDBOX_SMS_ACCOUNT.templateCode,
}

describe('the provider’s signature', () => {
  it('matches the provider’s documented example', () => {
    // The SendSms example of the provider's signature page (GET, secret "testSecret").
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    }
    expect(rpcSignature('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=')
  })
})

describe('SMS_PROVIDER', () => {
  const production = { NUMISMA_ENV: 'production', PAY_PASSWORD_PEPPER: 'x'.repeat(16) }

  it('is required in production; aliyun needs its four credentials', () => {
    expect(() => assertProductionSecrets(loadConfig(production))).toThrow(/SMS_PROVIDER/)
    expect(() =>
      assertProductionSecrets(loadConfig({ ...production, SMS_PROVIDER: 'aliyun' })),
    ).toThrow(/SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET, SMS_SIGN_NAME, SMS_TEMPLATE_CODE/)
    expect(() =>
      assertProductionSecrets(
        loadConfig({ ...production, ...aliyunEnv, SMS_ACCESS_KEY_SECRET: undefined }),
      ),
    ).toThrow(/SMS_ACCESS_KEY_SECRET/)
    expect(() => assertProductionSecrets(loadConfig({ ...production, ...aliyunEnv }))).not.toThrow()
    expect(() =>
      assertProductionSecrets(loadConfig({ ...production, SMS_PROVIDER: 'sandbox' })),
    ).not.toThrow()
  })

  it('defaults to the sandbox outside production and to the provider’s endpoint', () => {
    expect(loadConfig({}).sms).toMatchObject({
      provider: 'sandbox',
      endpoint: 'https://dysmsapi.aliyuncs.com',
      sandbox: true,
    })
    expect(loadConfig({ NUMISMA_ENV: 'production' }).sms).toMatchObject({
      provider: undefined,
      sandbox: false,
    })
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/SMS_PROVIDER/)
  })

  it('production without a provider sends nothing and answers SMS_UNAVAILABLE', async () => {
    const kind = databases[0]!
    const t = await createTestApp(kind, {
      sms: undefined,
      env: 'production',
      smsProvider: { provider: undefined, sandbox: false },
    })
    try {
      const res = await t.call({
        method: 'POST',
        path: '/passport/sms',
        body: { mobile: nextMobile() },
      })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toMatchObject({ code: 'SMS_UNAVAILABLE' })
      // And no provider sandbox in production.
      expect((await t.inject({ method: 'POST', url: '/svc/sandbox/sms/' })).statusCode).toBe(404)
    } finally {
      await t.close()
    }
  })
})

describe('SmsSandbox refuses what the provider would', () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 26, 12, 0, 0))
  const sandbox = new SmsSandbox(SANDBOX_SMS_ACCOUNT, clock)
  const sender = (account: Omit<AliyunSmsAccount, 'endpoint'> = SANDBOX_SMS_ACCOUNT) =>
    new AliyunSmsSender({ ...account, endpoint: 'http://sandbox' }, clock)
  const send = (params: Record<string, string>) => sandbox.sendSms('POST', params)
  const resign = (
    params: Record<string, string>,
    secret = SANDBOX_SMS_ACCOUNT.accessKeySecret,
  ) => ({
    ...params,
    Signature: rpcSignature('POST', params, secret),
  })

  it('accepts a signed request and keeps the text', () => {
    const answer = send(sender().signedParams('13812345678', '123456'))
    expect(answer).toMatchObject({ status: 200, body: { Code: 'OK', Message: 'OK' } })
    expect(sandbox.lastCodeFor('13812345678')).toBe('123456')
  })

  it('refuses a wrong secret, a tampered parameter, a reused nonce, a stale timestamp', () => {
    const wrongSecret = sender({ ...SANDBOX_SMS_ACCOUNT, accessKeySecret: 'not-the-secret' })
    expect(send(wrongSecret.signedParams('13812345678', '111111')).body.Code).toBe(
      'SignatureDoesNotMatch',
    )
    const params = sender().signedParams('13812345678', '222222')
    expect(send({ ...params, PhoneNumbers: '13900000000' }).body.Code).toBe('SignatureDoesNotMatch')
    expect(send(params).body.Code).toBe('OK')
    expect(send(params).body.Code).toBe('SignatureNonceUsed')
    // GET signs another string than POST.
    expect(sandbox.sendSms('GET', sender().signedParams('13812345678', '1')).body.Code).toBe(
      'SignatureDoesNotMatch',
    )
    const { Signature: _s, ...unsigned } = sender().signedParams('13812345678', '333333')
    expect(send(resign({ ...unsigned, Timestamp: '2026-11-26T11:40:00Z' })).body.Code).toBe(
      'InvalidTimeStamp.Expired',
    )
    expect(send(resign({ ...unsigned, Timestamp: '2026-11-26 12:00:00' })).body.Code).toBe(
      'InvalidTimeStamp.Format',
    )
    expect(send(resign({ ...unsigned, AccessKeyId: 'LTAIunknown' })).status).toBe(404)
  })

  it('refuses a bad number, sign name, template or template parameter', () => {
    const { Signature: _s, ...base } = sender().signedParams('13812345678', '444444')
    const codeOf = (change: Record<string, string>) =>
      send(resign({ ...base, ...change, SignatureNonce: crypto.randomUUID() })).body.Code
    expect(codeOf({ PhoneNumbers: '1234' })).toBe('isv.MOBILE_NUMBER_ILLEGAL')
    expect(codeOf({ SignName: '别的' })).toBe('isv.SMS_SIGNATURE_ILLEGAL')
    expect(codeOf({ TemplateCode: 'SMS_1' })).toBe('isv.SMS_TEMPLATE_ILLEGAL')
    expect(codeOf({ TemplateParam: '{code:1}' })).toBe('isv.INVALID_JSON_PARAM')
    expect(codeOf({ TemplateParam: '{"number":"123456"}' })).toBe('isv.TEMPLATE_MISSING_PARAMETERS')
    expect(codeOf({ Action: 'QuerySendDetails' })).toBe('InvalidAction.NotFound')
    expect(codeOf({ SignatureMethod: 'HMAC-SHA256' })).toBe('InvalidSignatureMethod')
  })
})

describe.each(databases)('sign-in through the provider’s sender on $name', (kind) => {
  let t: TestApp
  const logLines: string[] = []
  let failNext: 'throw' | 'html' | undefined
  let smsSandbox: SmsSandbox

  beforeAll(async () => {
    // The real AliyunSmsSender, configured as production would be, posting to this app's
    // provider sandbox (over `inject`: the same form body and answer as over HTTP).
    const transport: SmsTransport = async (url, form) => {
      if (failNext === 'throw') throw new Error(`connect ECONNREFUSED ${url}`)
      if (failNext === 'html') return { status: 502, text: '<html>bad gateway</html>' }
      const res = await t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      })
      return { status: res.statusCode, text: res.body }
    }
    smsSandbox = new SmsSandbox(SANDBOX_SMS_ACCOUNT, new FakeClock(Date.now()))
    t = await createTestApp(kind, {
      sms: undefined,
      smsSandbox,
      smsProvider: {
        ...loadConfig(aliyunEnv).sms,
        endpoint: 'http://127.0.0.1/svc/sandbox/sms',
        transport,
      },
      logger: {
        level: 'trace',
        stream: { write: (line: string) => void logLines.push(line) },
      },
    })
  })
  afterAll(() => t.close())

  const sandboxCode = (mobile: string) => smsSandbox.lastCodeFor(mobile)

  it('sends the code through SendSms and signs in with it', async () => {
    const mobile = nextMobile()
    const sent = await t.call({
      method: 'POST',
      path: '/passport/sms',
      body: { mobile },
      deviceId: 'd1',
    })
    expect(sent.statusCode).toBe(200)
    const code = sandboxCode(mobile)
    expect(code).toMatch(/^\d{6}$/)
    const login = await t.call({
      method: 'POST',
      path: '/passport/login',
      body: { mobile, code, agreement: true },
      deviceId: 'd1',
    })
    expect(login.statusCode).toBe(200)
  })

  it('reaches the sandbox over HTTP on the app’s listening port', async () => {
    // Any free port: a fixed one clashes with a dev server or another test file running alongside.
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const sender = new AliyunSmsSender(
      { ...SANDBOX_SMS_ACCOUNT, endpoint: `http://127.0.0.1:${port}/svc/sandbox/sms` },
      t.clock,
    )
    await sender.sendCode('13712345678', '765432')
    expect(sandboxCode('13712345678')).toBe('765432')
    const wrong = new AliyunSmsSender(
      {
        ...SANDBOX_SMS_ACCOUNT,
        accessKeySecret: 'wrong',
        endpoint: `http://127.0.0.1:${port}/svc/sandbox/sms`,
      },
      t.clock,
    )
    await expect(wrong.sendCode('13712345678', '111111')).rejects.toMatchObject({
      code: 'SMS_UNAVAILABLE',
    })
  })

  it('a refused or unreachable provider is SMS_UNAVAILABLE, and the log keeps no secret', async () => {
    for (const failure of ['throw', 'html'] as const) {
      failNext = failure
      const mobile = nextMobile()
      const res = await t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toMatchObject({ code: 'SMS_UNAVAILABLE', message: expect.any(String) })
      const log = logLines.join('')
      expect(log).toContain('SMS provider')
      expect(log).not.toContain(mobile)
      // The code that never went out holds nothing back: the same number may ask again at once.
      failNext = undefined
      const again = await t.call({ method: 'POST', path: '/passport/sms', body: { mobile } })
      expect(again.statusCode, again.body).toBe(200)
    }
    const log = logLines.join('')
    expect(log).not.toContain(SANDBOX_SMS_ACCOUNT.accessKeySecret)
  })
})

describe('a provider that accepts the connection and never answers', () => {
  it('is SMS_UNAVAILABLE once the transport’s time is up, not a sign-in hanging forever', async () => {
    const sockets = new Set<net.Socket>()
    const silent = net.createServer((socket) => sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()))
    const { port } = silent.address() as AddressInfo
    try {
      const sender = new AliyunSmsSender(
        { ...SANDBOX_SMS_ACCOUNT, endpoint: `http://127.0.0.1:${port}` },
        new FakeClock(Date.now()),
        httpSmsTransport(300),
      )
      const started = Date.now()
      await expect(sender.sendCode('13712345678', '765432')).rejects.toMatchObject({
        code: 'SMS_UNAVAILABLE',
      })
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => silent.close(() => resolve()))
    }
  })
})
