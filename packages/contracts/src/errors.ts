import { z } from 'zod'
import { CLIENT_ERRORS, type ErrorEntry, type Locale } from './errors-client'

export type { ClientErrorCode, Locale } from './errors-client'

/** The server's coded refusals; `status` is the HTTP status it answers with. */
const SERVER_ERRORS = {
  VALIDATION_FAILED: { status: 400, zh: '请求参数有误', en: 'the request is invalid' },
  NOT_FOUND: { status: 404, zh: '内容不存在', en: 'not found' },
  UNAUTHENTICATED: { status: 401, zh: '请先登录', en: 'please sign in first' },
  SIGNATURE_MISSING: { status: 401, zh: '请求未签名', en: 'the request is not signed' },
  SIGNATURE_INVALID: { status: 401, zh: '请求签名无效', en: 'the request signature is invalid' },
  APP_UNKNOWN: { status: 401, zh: '未知的应用标识', en: 'unknown app id' },
  TIMESTAMP_EXPIRED: {
    status: 401,
    zh: '请求已过期，请校准手机时间',
    en: 'the request has expired; check the phone clock',
  },
  NONCE_REPLAYED: { status: 401, zh: '重复的请求', en: 'the request was already used' },
  SERVICE_BUSY: {
    status: 503,
    zh: '服务繁忙，请稍后再试',
    en: 'the service is busy; try again shortly',
  },
  SESSION_INVALID: {
    status: 401,
    zh: '登录已失效，请重新登录',
    en: 'your session has ended; please sign in again',
  },
  FORBIDDEN: { status: 403, zh: '无权访问', en: 'access denied' },
  RATE_LIMITED: { status: 429, zh: '操作过于频繁，请稍后再试', en: 'too many requests; try later' },
  PAYLOAD_TOO_LARGE: { status: 413, zh: '请求内容过大', en: 'the request is too large' },
  REQUEST_TIMEOUT: {
    status: 408,
    zh: '请求超时，请重试',
    en: 'the request took too long; try again',
  },
  HEADERS_TOO_LARGE: { status: 431, zh: '请求头过大', en: 'the request headers are too large' },
  INTERNAL_ERROR: { status: 500, zh: '服务器繁忙，请稍后再试', en: 'server error; try later' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    zh: '请求标识已被其他请求使用',
    en: 'the idempotency key was used for a different request',
  },
  MOBILE_INVALID: { status: 400, zh: '请输入正确的手机号', en: 'enter a valid mobile number' },
  SMS_CODE_INVALID: { status: 400, zh: '验证码错误或已过期', en: 'the code is wrong or expired' },
  SMS_TOO_FREQUENT: {
    status: 429,
    zh: '验证码发送过于频繁，请稍后再试',
    en: 'codes are sent too often; try later',
  },
  // ADR 028: the SMS provider refused the text or could not be reached.
  SMS_UNAVAILABLE: {
    status: 503,
    zh: '短信发送失败，请稍后再试',
    en: 'the code could not be sent just now; try again later',
  },
  AGREEMENT_REQUIRED: {
    status: 400,
    zh: '请先阅读并同意用户协议',
    en: 'please accept the user agreement',
  },
  STAFF_LOGIN_FAILED: { status: 401, zh: '用户名或密码错误', en: 'wrong username or password' },
  BID_TOO_LOW: { status: 409, zh: '出价低于当前最低可出价', en: 'the bid is below the minimum' },
  BID_OFF_GRID: {
    status: 400,
    zh: '出价不符合加价幅度',
    en: 'the bid is not on the increment grid',
  },
  LOT_NOT_OPEN: { status: 409, zh: '拍品尚未开拍', en: 'the lot is not open yet' },
  LOT_CLOSED: { status: 409, zh: '拍品已结拍', en: 'the lot has closed' },
  ALREADY_LEADING: { status: 409, zh: '您已是最高出价者', en: 'you are already leading' },
  PROXY_NOT_FOUND: {
    status: 404,
    zh: '没有可取消的委托',
    en: 'there is no active proxy bid to cancel',
  },
  QUOTA_EXCEEDED: {
    status: 409,
    zh: '竞买额度不足，请充值保证金',
    en: 'your bidding quota is not enough; please recharge',
  },
  COUPON_GONE: {
    status: 409,
    zh: '优惠券已领完或不在领取时间内',
    en: 'the coupon has run out or is not available now',
  },
  COUPON_LIMIT: {
    status: 409,
    zh: '已达到该优惠券的领取上限',
    en: 'you have received as many of this coupon as allowed',
  },
  ORDER_NOT_CANCELLABLE: {
    status: 409,
    zh: '该订单不能取消',
    en: 'this order cannot be cancelled',
  },
  PAY_PASSWORD_NOT_SET: {
    status: 409,
    zh: '请先设置支付密码',
    en: 'please set a payment password first',
  },
  // Not 403: the web client signs out on 401/403 (spec §8), and a mistyped password must not.
  PAY_PASSWORD_WRONG: { status: 400, zh: '支付密码错误', en: 'the payment password is wrong' },
  PAY_LOCKED: {
    status: 423,
    zh: '支付密码错误次数过多，请3小时后再试',
    en: 'too many wrong payment passwords; try again in 3 hours',
  },
  PAY_PASSWORD_PROOF_REQUIRED: {
    status: 400,
    zh: '修改支付密码需要原密码或短信验证码',
    en: 'changing the payment password needs the old one or an SMS code',
  },
  BALANCE_LOW: { status: 409, zh: '余额不足', en: 'the balance is not enough' },
  COUPON_INVALID: {
    status: 409,
    zh: '优惠券不适用于所付订单',
    en: 'the coupon does not apply to the orders being paid',
  },
  PAY_CHANNEL_FAILED: {
    status: 503,
    zh: '微信支付暂时无法使用，请稍后再试或选择其他支付方式',
    en: 'messaging-app pay is unavailable just now; try again or choose another way to pay',
  },
  ORDER_NOT_PAYABLE: {
    status: 409,
    zh: '订单无法支付（已支付、已取消或不属于您）',
    en: 'the order cannot be paid (paid, cancelled or not yours)',
  },
  DEPOSIT_IN_USE: {
    status: 409,
    zh: '保证金正被出价或未付款订单占用',
    en: 'that much deposit is held by your bids or unpaid orders',
  },
  BIDDER_OVERDUE: {
    status: 409,
    zh: '您有逾期未付款的订单，付款后方可出价',
    en: 'you have an overdue unpaid order; pay it before bidding',
  },
  NOT_PENDING: {
    status: 409,
    zh: '该申请已处理',
    en: 'this request has already been decided',
  },
  PAY_NOTICE_INVALID: {
    status: 400,
    zh: '支付通知校验失败',
    en: 'the payment notice failed verification',
  },
  RECEIPT_INVALID: {
    status: 400,
    zh: '汇款凭证图片无法识别',
    en: 'the receipt picture cannot be read',
  },
  ORDER_NOT_OVERDUE: {
    status: 409,
    zh: '该订单未逾期，不能扣除保证金',
    en: 'the order is not overdue; its deposit cannot be taken',
  },
  ORDER_AWAITING_REMITTANCE: {
    status: 409,
    zh: '该订单的汇款通知尚待审核，审核前不能扣除保证金',
    en: 'a remittance notice for the order awaits review; its deposit cannot be taken before then',
  },
  ORDER_PAYMENT_PENDING: {
    status: 409,
    zh: '该订单的微信支付尚在进行中，支付结束前不能扣除保证金',
    en: 'a messaging-app payment for the order is still open; its deposit cannot be taken before it ends',
  },
  // Orders and delivery (issue 10; the rules are packages/domain/src/order-status.ts, delivery.ts).
  ORDER_NOT_SHIPPABLE: {
    status: 409,
    zh: '订单不在待发货状态，无法办理发货或提货',
    en: 'the order is not waiting to ship',
  },
  ORDER_NOT_RECEIVABLE: {
    status: 409,
    zh: '订单尚未发货，无法确认收货',
    en: 'the order has not been shipped; its receipt cannot be confirmed',
  },
  ORDER_NOT_DUE: { status: 409, zh: '订单尚未到期', en: 'the order is not due yet' },
  ORDER_PAID_OFFLINE: {
    status: 409,
    zh: '该订单的汇款或柜台现金支付正在等待处理',
    en: 'a remittance or counter cash payment for the order awaits staff',
  },
  ORDER_NOT_BOOKABLE: {
    status: 409,
    zh: '该订单不能预约柜台现金支付（已支付、已取消或已过期）',
    en: 'this order cannot be booked for cash payment at the counter (paid, cancelled or expired)',
  },
  BOOKING_NOT_CANCELLABLE: {
    status: 409,
    zh: '预约日当天及之后不能取消预约，请联系柜台',
    en: 'a booking can be cancelled only before its day; ask the counter',
  },
  BOOKING_LIMIT: {
    status: 409,
    zh: '柜台预约已达上限（每天 1 个、共 3 个未完成），请先完成或取消已有预约',
    en: 'you have as many open counter bookings as allowed (one a day, three in all); complete or cancel one first',
  },
  EXIT_BANNED: {
    status: 409,
    zh: '所选拍品禁止出境，不能寄往中国大陆以外的地址',
    en: 'some of the items may not leave the country; they cannot go outside the mainland',
  },
  SLOT_FULL: {
    status: 409,
    zh: '该时段已约满，请选择其他时段',
    en: 'that time slot is fully booked; choose another',
  },
  SLOT_UNAVAILABLE: {
    status: 400,
    zh: '该日期或时段不可预约',
    en: 'that date or time slot cannot be booked',
  },
  ADDRESS_NAME_INVALID: {
    status: 400,
    zh: '请填写收货人姓名（1–25个字）',
    en: "enter the recipient's name (1–25 characters)",
  },
  ADDRESS_DETAIL_INVALID: {
    status: 400,
    zh: '请填写详细地址（5–120个字）',
    en: 'enter the street address (5–120 characters)',
  },
  ADDRESS_REGION_INVALID: {
    status: 400,
    zh: '请选择正确的国家和省市',
    en: 'choose a valid country, province and city',
  },
  ADDRESS_LIMIT: {
    status: 409,
    zh: '最多保存20个收货地址，请先删除不用的地址',
    en: 'you can keep at most 20 addresses; delete one first',
  },
  WX_CODE_INVALID: {
    status: 400,
    zh: '微信授权已失效，请重新进入',
    en: 'the messaging-app authorisation has expired; open the page again',
  },
  WX_BIND_EXPIRED: {
    status: 400,
    zh: '绑定已过期，请重新授权',
    en: 'binding has expired; authorise again',
  },
  WX_ACCOUNT_LINKED: {
    status: 409,
    zh: '该手机号已绑定其他微信账号',
    en: 'this mobile number is already linked to another messaging-app account',
  },
  // Issue 11 review: the open id (not the number) is taken — its own reason, before the SMS code.
  WX_OPENID_LINKED: {
    status: 409,
    zh: '该微信账号已绑定其他手机号',
    en: 'this messaging-app account is already linked to another mobile number',
  },
  WX_UNAVAILABLE: {
    status: 503,
    zh: '微信服务暂时无法使用，请稍后再试',
    en: 'the messaging platform cannot be reached just now; try again later',
  },
  CHAT_IMAGE_INVALID: {
    status: 400,
    zh: '图片无法识别，请换一张',
    en: 'the picture cannot be read; choose another',
  },
  CHAT_ITEM_NOT_FOUND: {
    status: 404,
    zh: '商品不存在',
    en: 'that item does not exist',
  },
  CHAT_IMAGE_QUOTA: {
    status: 429,
    zh: '今天发送的图片已达上限，请明天再发或改用文字',
    en: 'you have sent as many pictures as a day allows; try tomorrow or write instead',
  },
  STAFF_USERNAME_TAKEN: { status: 409, zh: '该用户名已被使用', en: 'that username is taken' },
  STAFF_SELF_LOCKOUT: {
    status: 409,
    zh: '不能停用自己的账号或取消自己的管理员角色',
    en: 'you cannot disable your own account or drop your own admin role',
  },
  STAFF_LAST_ADMIN: {
    status: 409,
    zh: '至少需要保留一名启用的管理员',
    en: 'the house must keep at least one enabled admin',
  },
  // Issue 12 · console areas add their codes below.
  PHOTO_INVALID: {
    status: 400,
    zh: '图片无法识别，请上传 JPEG、PNG 或 WebP 照片',
    en: 'the picture cannot be read; upload a JPEG, PNG or WebP photo',
  },
  SPECIAL_STARTED: {
    status: 409,
    zh: '专场已开拍，时间设置不能再修改',
    en: 'the special has started; its times can no longer change',
  },
  LOT_HAS_BIDS: {
    status: 409,
    zh: '拍品已有出价或已结拍，不能再修改',
    en: 'the lot has bids or has closed; it can no longer change',
  },
  RESERVE_BELOW_START: {
    status: 400,
    zh: '保留价不能低于起拍价',
    en: 'the reserve cannot be below the start price',
  },
  LOT_IMPORT_INVALID: {
    status: 400,
    zh: '导入文件有误，未导入任何拍品',
    en: 'the import file has errors; no lot was imported',
  },
  LOT_REFERENCED: {
    status: 409,
    zh: '该拍品已有关联记录（如重新上拍），不能撤回',
    en: 'other records refer to this lot (such as a relisting); it cannot be withdrawn',
  },
  TRACKING_NO_INVALID: {
    status: 400,
    zh: '运单号与快递公司的格式不符，请核对',
    en: 'the tracking number does not fit that carrier; check it',
  },
  LOT_NOT_RELISTABLE: {
    status: 409,
    zh: '只有流拍或已没收保证金的拍品才能重新上拍',
    en: 'only an unsold lot, or one whose order was forfeited, can be relisted',
  },
  LOT_ALREADY_RELISTED: {
    status: 409,
    zh: '该拍品已重新上拍过',
    en: 'the lot has already been relisted',
  },
  SPECIAL_CLOSED: {
    status: 409,
    zh: '专场已结束，请选择未结束的专场',
    en: 'the special has closed; choose one that has not',
  },
  ORDER_NOT_REFUNDABLE: {
    status: 409,
    zh: '该订单不可退款（仅限已付款且未申请发货的订单）',
    en: 'only a paid order not yet applied for delivery can be refunded',
  },
  // Issue 12 · shop settings (mall items, categories, coupons, increments).
  STOCK_HELD: {
    status: 409,
    zh: '不能扣减超过货架上现有的数量（已下单的件数不能减少）',
    en: 'cannot take off more units than are on the shelf; ordered units stay ordered',
  },
  CATEGORY_IN_USE: {
    status: 409,
    zh: '该分类仍在使用中（有拍品、商品、子分类或优惠券），不能删除',
    en: 'the category is still in use (lots, items, sub-categories or coupons) and cannot be deleted',
  },
  CATEGORY_ORDER_STALE: {
    status: 409,
    zh: '分类已被他人修改，请刷新后重新排序',
    en: 'the categories changed since you loaded them; reload and order them again',
  },
  COUPON_NOT_ISSUING: {
    status: 409,
    zh: '该优惠券已不在发放中',
    en: 'the coupon is not being issued',
  },
  INCREMENT_TABLE_INVALID: {
    status: 400,
    zh: '加价阶梯不合规：首行须从0起，起价递增，加价为正，且每档起价落在上一档与本档的加价网格上',
    en: 'the increment table is invalid: the first row starts at 0, starts ascend, steps are positive, and each start lies on the previous and its own step grid',
  },
  SPECIAL_TIMES_PAST: {
    status: 400,
    zh: '专场结束时间须晚于现在；未开始的专场不能把开始时间改到过去',
    en: 'a special must end later than now, and one not yet started cannot start in the past',
  },
} as const satisfies Record<string, ErrorEntry>

/**
 * The error catalogue: spec §8 texts (the client's per-call defaults, errors-client.ts, whose web
 * first load carries only those) and the server's coded refusals. One table so the server's message
 * and the client's fallback never drift apart. Client-only entries have status 0.
 */
export const ERRORS = { ...CLIENT_ERRORS, ...SERVER_ERRORS } as const satisfies Record<
  string,
  ErrorEntry
>

export type ErrorCode = keyof typeof ERRORS

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERRORS, code)
}

export function errorText(code: ErrorCode, locale: Locale = 'zh'): string {
  return ERRORS[code][locale]
}

/** zh unless the caller asks for English first (Accept-Language, a `lang` cookie, …). */
export function pickLocale(value: string | undefined | null): Locale {
  if (!value) return 'zh'
  const first = value.split(',')[0]?.trim().toLowerCase() ?? ''
  return first.startsWith('en') ? 'en' : 'zh'
}

export const ErrorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
})
export type ErrorBody = z.infer<typeof ErrorBodySchema>
