/**
 * What never reaches a log line (ADR 028): credentials, codes and keys are censored wherever a
 * logger is handed them, and a mobile number shows only its first three and last four digits.
 */

/** `13812345678` → `138****5678`; anything shorter keeps only its last two characters. */
export function maskMobile(mobile: string): string {
  if (mobile.length >= 11) return `${mobile.slice(0, 3)}****${mobile.slice(-4)}`
  return `${'*'.repeat(Math.max(0, mobile.length - 2))}${mobile.slice(-2)}`
}

/** Field names whose values are secrets, at the top of a log object or one level down. */
const SECRET_FIELDS = [
  'password',
  'oldPassword',
  'payPassword',
  'code',
  'smsCode',
  'key',
  'secret',
  'accessKeySecret',
  'sid',
  'token',
  'authorization',
  'cookie',
]

const HEADERS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-sign"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-sign"]',
  'headers["set-cookie"]',
]

const MOBILE_FIELDS = ['mobile', '*.mobile', 'phone', '*.phone']

/** pino's `redact` option: secrets censored, mobile numbers masked. */
export const LOG_REDACTION = {
  paths: [
    ...HEADERS,
    // `*.code` would hide errors' codes (`err.code`); an SMS code is only ever logged on its own.
    ...SECRET_FIELDS.flatMap((name) => (name === 'code' ? [name] : [name, `*.${name}`])),
    ...MOBILE_FIELDS,
  ],
  censor: (value: unknown, path: string[]): unknown => {
    const field = path.at(-1)
    if ((field === 'mobile' || field === 'phone') && typeof value === 'string') {
      return maskMobile(value)
    }
    return '[redacted]'
  },
}

/**
 * A mainland mobile number anywhere in a URL (a query, a path), with or without its country code
 * (`86`, `+86`, `%2B86`), not part of a longer number.
 */
const MOBILE_IN_URL = /(?<!\d)((?:\+|%2B)?(?:86)?1[3-9]\d)(\d{4})(\d{4})(?!\d)/gi
/** Query values that are secrets in an SMS provider's call (the sandbox's requests are logged). */
const SMS_SECRETS_IN_QUERY = /([?&](?:TemplateParam|Signature|SignatureNonce|AccessKeyId)=)[^&#]*/gi

/**
 * A request URL as a log line may show it: mobile numbers masked wherever they appear (a staff
 * search `?mobile=`, an SMS sandbox call's `PhoneNumbers=`, URL-encoded or not) and the SMS
 * provider's signed values censored.
 */
export function redactUrl(url: string): string {
  return url.replace(SMS_SECRETS_IN_QUERY, '$1[redacted]').replace(MOBILE_IN_URL, '$1****$3')
}
