import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../../platform/clock'
import {
  rpcSignature,
  SMS_API_VERSION,
  SMS_TIMESTAMP_SKEW_MS,
  type SendSmsAnswer,
} from '../passport/aliyun-sms-protocol'

export const SMS_SANDBOX_PREFIX = '/svc/sandbox/sms'

/** The account the sandbox provider knows (config.ts SANDBOX_SMS_ACCOUNT in a running server). */
export interface SmsSandboxAccount {
  accessKeyId: string
  accessKeySecret: string
  signName: string
  templateCode: string
}

export interface SandboxText {
  phoneNumber: string
  signName: string
  templateCode: string
  templateParam: Record<string, string>
  bizId: string
  at: number
}

/** How long a SignatureNonce is remembered (the provider refuses one seen within 15 minutes). */
const NONCE_TTL_MS = SMS_TIMESTAMP_SKEW_MS
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/
const MAINLAND_MOBILE = /^1[3-9]\d{9}$/

/**
 * The SMS provider's `SendSms`, stood in for locally (ADR 028), refusing what the provider would
 * and in its words: the common parameters, the AccessKey, the HMAC-SHA1 signature, the timestamp
 * window, a reused nonce, the number, the sign name, the template and its parameters. What it
 * accepts lands in its outbox, which a test or a developer reads instead of a phone.
 */
export class SmsSandbox {
  readonly outbox: SandboxText[] = []
  private readonly nonces = new Map<string, number>()

  constructor(
    private readonly account: SmsSandboxAccount,
    private readonly clock: Clock,
  ) {}

  sendSms(
    method: 'GET' | 'POST',
    params: Record<string, string>,
  ): { status: number; body: SendSmsAnswer } {
    const now = this.clock.now()
    const requestId = randomRequestId()
    const refuse = (status: number, code: string, message: string) => ({
      status,
      body: { RequestId: requestId, Code: code, Message: message },
    })
    for (const name of [
      'AccessKeyId',
      'Action',
      'SignatureMethod',
      'SignatureVersion',
      'SignatureNonce',
      'Timestamp',
      'Version',
      'Signature',
    ]) {
      if (!params[name])
        return refuse(400, `MissingParameter`, `${name} is mandatory for this action.`)
    }
    if (params.Action !== 'SendSms') {
      return refuse(400, 'InvalidAction.NotFound', 'Specified api is not found.')
    }
    if (params.Version !== SMS_API_VERSION) {
      return refuse(400, 'InvalidVersion', 'Specified parameter Version is not valid.')
    }
    if (params.Format !== undefined && params.Format !== 'JSON' && params.Format !== 'XML') {
      return refuse(400, 'InvalidParameter.Format', 'Specified parameter Format is not valid.')
    }
    if (params.SignatureMethod !== 'HMAC-SHA1') {
      return refuse(400, 'InvalidSignatureMethod', 'Specified signature method is not supported.')
    }
    if (params.SignatureVersion !== '1.0') {
      return refuse(400, 'InvalidSignatureVersion', 'Specified signature version is not supported.')
    }
    const at = parseTimestamp(params.Timestamp!)
    if (at === null) {
      return refuse(400, 'InvalidTimeStamp.Format', 'Specified time stamp is not valid.')
    }
    if (Math.abs(now - at) > SMS_TIMESTAMP_SKEW_MS) {
      return refuse(
        400,
        'InvalidTimeStamp.Expired',
        'Specified time stamp or date value is expired.',
      )
    }
    if (params.AccessKeyId !== this.account.accessKeyId) {
      return refuse(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.')
    }
    const expected = Buffer.from(rpcSignature(method, params, this.account.accessKeySecret))
    const given = Buffer.from(params.Signature!)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return refuse(
        400,
        'SignatureDoesNotMatch',
        'Specified signature is not matched with our calculation.',
      )
    }
    this.forgetNonces(now)
    if (this.nonces.has(params.SignatureNonce!)) {
      return refuse(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.')
    }
    this.nonces.set(params.SignatureNonce!, now)

    // Past authentication: the business checks answer HTTP 200 with their own `isv.` codes.
    const numbers = (params.PhoneNumbers ?? '').split(',')
    if (
      numbers.length === 0 ||
      numbers.length > 1000 ||
      !numbers.every((n) => MAINLAND_MOBILE.test(n))
    ) {
      return refuse(200, 'isv.MOBILE_NUMBER_ILLEGAL', '非法手机号')
    }
    if (params.SignName !== this.account.signName) {
      return refuse(200, 'isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名')
    }
    if (params.TemplateCode !== this.account.templateCode) {
      return refuse(200, 'isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板')
    }
    let templateParam: unknown
    try {
      templateParam = JSON.parse(params.TemplateParam ?? '')
    } catch {
      return refuse(200, 'isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值')
    }
    if (
      typeof templateParam !== 'object' ||
      templateParam === null ||
      Object.values(templateParam).some((v) => typeof v !== 'string')
    ) {
      return refuse(200, 'isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值')
    }
    const values = templateParam as Record<string, string>
    // The sandbox template is a verification code: `${code}`, 4–6 digits.
    if (values.code === undefined) {
      return refuse(200, 'isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量')
    }
    if (!/^\d{4,6}$/.test(values.code)) {
      return refuse(200, 'isv.TEMPLATE_PARAMS_ILLEGAL', '模板变量里包含非法关键字')
    }
    const bizId = `${now}^${randomBytes(4).toString('hex')}`
    for (const phoneNumber of numbers) {
      this.outbox.push({
        phoneNumber,
        signName: params.SignName,
        templateCode: params.TemplateCode,
        templateParam: values,
        bizId,
        at: now,
      })
    }
    if (this.outbox.length > 1000) this.outbox.splice(0, this.outbox.length - 1000)
    return { status: 200, body: { RequestId: requestId, Code: 'OK', Message: 'OK', BizId: bizId } }
  }

  lastCodeFor(mobile: string): string | undefined {
    return this.outbox.findLast((text) => text.phoneNumber === mobile)?.templateParam.code
  }

  private forgetNonces(now: number): void {
    for (const [nonce, at] of this.nonces) {
      if (now - at <= NONCE_TTL_MS) break
      this.nonces.delete(nonce)
    }
  }
}

function parseTimestamp(value: string): number | null {
  const m = TIMESTAMP.exec(value)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  return Number.isNaN(ms) ? null : ms
}

function randomRequestId(): string {
  const hex = randomBytes(16).toString('hex').toUpperCase()
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
