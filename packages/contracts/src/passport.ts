import { z } from 'zod'

/** Mainland mobile numbers: 11 digits starting with 1[3-9]. */
export const MobileSchema = z.string().regex(/^1[3-9]\d{9}$/, 'MOBILE_INVALID')

export const SmsRequestSchema = z.object({ mobile: MobileSchema })
export const SmsResponseSchema = z.object({
  data: z.object({ sent: z.literal(true), devCode: z.string().optional() }),
})

export const LoginRequestSchema = z.object({
  mobile: MobileSchema,
  code: z.string().regex(/^\d{6}$/),
  agreement: z.literal(true),
})
export type LoginRequest = z.infer<typeof LoginRequestSchema>

export const LoginResultSchema = z.object({
  userId: z.string(),
  id: z.string(),
  key: z.string(),
  display: z.string(),
  mobile: z.string(),
})
export const LoginResponseSchema = z.object({ data: LoginResultSchema })
export type LoginResult = z.infer<typeof LoginResultSchema>

export const SMS_CODE_TTL_SECONDS = 300
export const SMS_RESEND_SECONDS = 60
export const SMS_MAX_ATTEMPTS = 5

/** Masks a mobile number for display: 138****8000. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile
}
