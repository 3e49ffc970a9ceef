/**
 * The client's part of the error catalogue (contracts/errors): the texts of spec §8 the web app
 * shows when a call fails without the server's word, by call, and for the connection (OFFLINE,
 * TIMEOUT). A module of its own so the app's first load carries these and not the server's coded
 * refusals, whose texts come in the server's error body (issue 13). errors.ts composes the full
 * catalogue from this table, so a client text and the server's catalogue never drift apart.
 */
export type Locale = 'zh' | 'en'

export interface ErrorEntry {
  /** The HTTP status the server answers with; 0 for the client's own entries. */
  status: number
  zh: string
  en: string
}

export const CLIENT_ERRORS = {
  GET_USER_FAILED: { status: 0, zh: '获取用户信息失败', en: 'failed to get user' },
  GET_FEE_FAILED: { status: 0, zh: '获取手续费失败', en: 'failed to get fee' },
  BALANCE_PAYMENT_FAILED: { status: 0, zh: '余额支付失败', en: 'balance payment failed' },
  PAYMENT_FAILED: { status: 0, zh: '支付失败', en: 'payment failed' },
  GET_QUANTITY_FAILED: { status: 0, zh: '获取数量失败', en: 'failed to get quantity' },
  GET_LIST_FAILED: { status: 0, zh: '获取列表失败', en: 'failed to get list' },
  GET_WATCH_LIST_FAILED: { status: 0, zh: '获取关注列表失败', en: 'failed to get watch list' },
  INTERFACE_REQUEST_FAILED: { status: 0, zh: '接口请求失败', en: 'interface request failed' },
  REQUEST_FAILED: { status: 0, zh: '请求失败', en: 'request failed' },
  GET_ADDRESS_LIST_FAILED: { status: 0, zh: '获取地址列表失败', en: 'failed to get list' },
  GET_ADDRESS_FAILED: { status: 0, zh: '获取地址失败', en: 'failed to get address' },
  GET_COUNTRY_FAILED: { status: 0, zh: '获取国家失败', en: 'failed to get country' },
  GET_PROVINCE_FAILED: { status: 0, zh: '获取省份失败', en: 'failed to get province' },
  GET_CITY_FAILED: { status: 0, zh: '获取城市失败', en: 'failed to get city' },
  ADDRESS_ADD_FAILED: { status: 0, zh: '添加失败', en: 'add failed' },
  ADDRESS_UPDATE_FAILED: { status: 0, zh: '修改失败', en: 'update failed' },
  ADDRESS_DELETE_FAILED: { status: 0, zh: '删除失败', en: 'delete failed' },
  ADDRESS_SET_FAILED: { status: 0, zh: '设置失败', en: 'set failed' },
  GET_INFO_FAILED: { status: 0, zh: '获取信息失败', en: 'failed to get info' },
  SUBMIT_FAILED: { status: 0, zh: '提交失败', en: 'submit failed' },
  GET_CATEGORY_FAILED: { status: 0, zh: '获取分类失败', en: 'failed to get category' },
  GET_BANNER_FAILED: { status: 0, zh: '获取轮播图失败', en: 'failed to get banner' },
  GET_SPECIAL_FAILED: { status: 0, zh: '获取专场失败', en: 'failed to get special' },
  GET_BUYING_FAILED: { status: 0, zh: '获取竞买列表失败', en: 'failed to get buying' },
  GET_MALL_FAILED: { status: 0, zh: '获取商城列表失败', en: 'failed to get mall' },
  GET_SPECIAL_LIST_FAILED: { status: 0, zh: '获取专场列表失败', en: 'failed to get special list' },
  GET_TIME_FAILED: { status: 0, zh: '获取时间失败', en: 'failed to get time' },
  GET_MALL_CATEGORY_FAILED: {
    status: 0,
    zh: '获取商城分类失败',
    en: 'failed to get mall category',
  },
  SHARE_INIT_FAILED: { status: 0, zh: '初始化分享失败', en: 'failed to initialise sharing' },
  GET_FOLLOW_INFO_FAILED: { status: 0, zh: '获取关注信息失败', en: 'failed to get follow info' },
  GET_MALL_FOLLOW_INFO_FAILED: {
    status: 0,
    zh: '获取商城关注信息失败',
    en: 'failed to get mall follow info',
  },
  GET_BID_INFO_FAILED: { status: 0, zh: '获取出价信息失败', en: 'failed to get bid info' },
  FOLLOW_FAILED: { status: 0, zh: '关注失败', en: 'follow failed' },
  UNFOLLOW_FAILED: { status: 0, zh: '取消关注失败', en: 'unfollow failed' },
  GET_ITEM_INFO_FAILED: { status: 0, zh: '获取商品信息失败', en: 'failed to get item info' },
  GET_BID_RECORDS_FAILED: { status: 0, zh: '获取出价记录失败', en: 'failed to get bid records' },
  BID_FAILED: { status: 0, zh: '出价失败', en: 'bid failed' },
  CANCEL_PROXY_FAILED: { status: 0, zh: '取消委托失败', en: 'cancel proxy failed' },
  PURCHASE_FAILED: { status: 0, zh: '购买失败', en: 'purchase failed' },
  OPERATION_FAILED: {
    status: 0,
    zh: '操作失败，请稍后再试',
    en: 'operation failed, please try again later',
  },
  OFFLINE: { status: 0, zh: '网络连接似乎已断开', en: 'the connection to the internet seems lost' },
  TIMEOUT: { status: 0, zh: '请求超时，请稍后再试', en: 'the request timed out' },
} as const satisfies Record<string, ErrorEntry & { status: 0 }>

/** A code the client has a text of its own for: a call's default error, OFFLINE, TIMEOUT. */
export type ClientErrorCode = keyof typeof CLIENT_ERRORS

export function clientErrorText(code: ClientErrorCode, locale: Locale = 'zh'): string {
  return CLIENT_ERRORS[code][locale]
}
