/** Cookie names of spec §3 plus the HttpOnly session cookie of DESIGN §3. */
export const COOKIE = {
  id: 'id',
  key: 'key',
  userId: 'userId',
  display: 'display',
  mobile: 'mobile',
  agreement: 'agreement',
  loginTime: 'loginTime',
  deviceId: 'deviceId',
  sid: 'sid',
  staffSid: 'staff_sid',
  locale: 'lang',
} as const

/** Cookies that make up a login; cleared on logout and on any 401/403 (spec §8). */
export const LOGIN_COOKIES = [
  COOKIE.id,
  COOKIE.key,
  COOKIE.userId,
  COOKIE.display,
  COOKIE.mobile,
  COOKIE.agreement,
  COOKIE.loginTime,
] as const

export const COOKIE_MAX_AGE_DAYS = 30
export const COOKIE_MAX_AGE_SECONDS = COOKIE_MAX_AGE_DAYS * 24 * 60 * 60
