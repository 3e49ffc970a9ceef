import type { StaffRole } from '@numisma/contracts/staff'

/** The operator console's words: staff work in Chinese (the shop's i18n stays out of this bundle). */
export const TEXT = {
  console: '泉藏拍卖 · 运营后台',
  desk: '客服工作台',
  signIn: '登录',
  signInTitle: '员工登录',
  username: '用户名',
  password: '密码',
  usernameRequired: '请输入用户名',
  passwordRequired: '请输入密码',
  signInFailed: '登录失败',
  signOut: '退出登录',
  conversations: '会话',
  noConversations: '暂无会话',
  loadMore: '加载更多会话',
  unreadTotal: (conversations: number, messages: number) =>
    `${conversations} 个会话有未读（${messages} 条）`,
  unreadElsewhere: (conversations: number) => `下方还有 ${conversations} 个未读会话`,
  pickConversation: '请从左侧选择一个会话',
  noMessages: '暂无消息',
  older: '加载更早的消息',
  noOlder: '没有更早的消息了',
  placeholder: '输入回复，Enter 发送，Shift+Enter 换行',
  send: '发送',
  picture: '图片',
  pictureFailed: '图片无法读取，请换一张',
  sending: '发送中',
  failed: '发送失败',
  retry: '重试',
  offline: '连接已断开，正在重新连接…',
  loadFailed: '加载失败',
  reload: '重试',
  yesterday: '昨天',
  lastPicture: '[图片]',
  lastCard: '[商品]',
  cardLot: '拍品',
  cardMall: '商品',
  agent: '客服',
  noPages: '您的账号尚未分配可用的页面，请联系管理员',
  pageNotFound: '页面不存在',
  backHome: '返回首页',
} as const

/** The roles as staff read them (contracts/staff STAFF_ROLES). */
export const ROLE_NAMES = {
  admin: '管理员',
  cataloguer: '编目',
  cashier: '出纳',
  shipping: '发货',
  support: '客服',
} as const satisfies Record<StaffRole, string>
