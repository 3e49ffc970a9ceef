import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import { maskMobile } from '../../platform/log-redaction'
import {
  percentEncode,
  rpcSignature,
  rpcTimestamp,
  SMS_API_VERSION,
  type SendSmsAnswer,
} from './aliyun-sms-protocol'

/** The SMS gateway, a third party (DESIGN §3, ADR 028): sends a sign-in code to a mobile. */
export interface SmsSender {
  /** Throws AppError('SMS_UNAVAILABLE') when the provider refuses or cannot be reached. */
  sendCode(mobile: string, code: string, ttlMinutes: number): Promise<void>
}

/** The text a phone shows; the provider's template says the same. */
export const smsText = (code: string, ttlMinutes: number): string =>
  `【泉藏】您的验证码是${code}，${ttlMinutes}分钟内有效。`

/**
 * Sandbox gateway: keeps an outbox, so sign-in works end to end on one machine and tests can read
 * the code a real phone would receive. It logs that a text went out, to a masked number and never
 * with its code (a code read from a log signs in).
 */
export class SandboxSmsSender implements SmsSender {
  readonly outbox: { mobile: string; text: string }[] = []

  constructor(private readonly log?: FastifyBaseLogger) {}

  sendCode(mobile: string, code: string, ttlMinutes: number): Promise<void> {
    this.outbox.push({ mobile, text: smsText(code, ttlMinutes) })
    if (this.outbox.length > 1000) this.outbox.shift()
    this.log?.info({ mobile: maskMobile(mobile) }, 'sandbox SMS sent (code kept in its outbox)')
    return Promise.resolve()
  }

  lastCodeFor(mobile: string): string | undefined {
    const message = this.outbox.findLast((m) => m.mobile === mobile)
    return message && /(\d{6})/.exec(message.text)?.[1]
  }
}

/** Production without a configured provider (server.ts refuses to start so): no code goes out. */
export class UnconfiguredSmsSender implements SmsSender {
  sendCode(): Promise<void> {
    return Promise.reject(new AppError('SMS_UNAVAILABLE'))
  }
}

export interface AliyunSmsAccount {
  accessKeyId: string
  accessKeySecret: string
  signName: string
  templateCode: string
  /** Base URL, `https://dysmsapi.aliyuncs.com` or the sandbox's `…/svc/sandbox/sms`. */
  endpoint: string
}

/** POSTs a form body to `url`; the provider's HTTP status and body text. */
export type SmsTransport = (url: string, form: string) => Promise<{ status: number; text: string }>

export const httpSmsTransport =
  (timeoutMs = 10_000): SmsTransport =>
  async (url, form) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    })
    return { status: response.status, text: await response.text() }
  }

/**
 * The provider's `SendSms` (aliyun-sms-protocol.ts): one signed POST per code, the template's
 * `${code}` filled by TemplateParam. A refusal or an unreachable provider is SMS_UNAVAILABLE (503)
 * for the caller; the log says the provider's code and request id, never the secret, the code or
 * the whole number.
 */
export class AliyunSmsSender implements SmsSender {
  constructor(
    private readonly account: AliyunSmsAccount,
    private readonly clock: Clock,
    private readonly transport: SmsTransport = httpSmsTransport(),
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The signed parameters of one request (exposed for the protocol's tests). */
  signedParams(mobile: string, code: string): Record<string, string> {
    const params: Record<string, string> = {
      AccessKeyId: this.account.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: mobile,
      RegionId: 'cn-hangzhou',
      SignName: this.account.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: this.account.templateCode,
      TemplateParam: JSON.stringify({ code }),
      Timestamp: rpcTimestamp(this.clock.now()),
      Version: SMS_API_VERSION,
    }
    return { ...params, Signature: rpcSignature('POST', params, this.account.accessKeySecret) }
  }

  async sendCode(mobile: string, code: string): Promise<void> {
    const params = this.signedParams(mobile, code)
    const form = Object.entries(params)
      .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
      .join('&')
    const to = maskMobile(mobile)
    let reply: { status: number; text: string }
    try {
      reply = await this.transport(`${this.account.endpoint.replace(/\/+$/, '')}/`, form)
    } catch (error) {
      this.log?.warn({ mobile: to, reason: errorName(error) }, 'SMS provider unreachable')
      throw new AppError('SMS_UNAVAILABLE')
    }
    let answer: Partial<SendSmsAnswer> = {}
    try {
      answer = JSON.parse(reply.text) as Partial<SendSmsAnswer>
    } catch {
      // Not JSON: a proxy's error page; reported by status below.
    }
    if (answer.Code !== 'OK') {
      this.log?.warn(
        {
          mobile: to,
          status: reply.status,
          providerCode: answer.Code,
          requestId: answer.RequestId,
        },
        'SMS provider refused the text',
      )
      throw new AppError('SMS_UNAVAILABLE')
    }
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown'
}
