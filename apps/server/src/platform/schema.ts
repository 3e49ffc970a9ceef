import type { Generated } from 'kysely'

/** Kysely table types. Times are epoch milliseconds (bigint), money is integer fen. */
export interface SettingsTable {
  key: string
  value: string
}

export interface UsersTable {
  id: Generated<number>
  mobile: string
  display: string
  avatar: string | null
  created_at: number
}

export interface SessionsTable {
  /** The per-session app id the client signs with (cookie `id`). */
  id: string
  user_id: number
  /** The per-session signing key (cookie `key`). */
  key: string
  /** SHA-256 of the HttpOnly `sid` cookie; the raw value is never stored. */
  sid_hash: string
  device_id: string
  created_at: number
  expires_at: number
  revoked_at: number | null
}

export interface SmsCodesTable {
  id: Generated<number>
  mobile: string
  code_hash: string
  created_at: number
  expires_at: number
  attempts: number
  consumed_at: number | null
}

export interface RequestNoncesTable {
  nonce: string
  expires_at: number
}

export interface StaffUsersTable {
  id: Generated<number>
  username: string
  password_hash: string
  created_at: number
  disabled_at: number | null
}

export interface StaffRolesTable {
  staff_id: number
  role: string
}

export interface StaffAuditTable {
  id: Generated<number>
  staff_id: number
  username: string
  method: string
  route: string
  action: string
  target: string | null
  params: string
  body: string
  before: string | null
  after: string | null
  idempotency_key: string | null
  status_code: number
  error_code: string | null
  created_at: number
}

export interface StaffSessionsTable {
  sid_hash: string
  staff_id: number
  created_at: number
  expires_at: number
}

export interface CategoriesTable {
  id: Generated<number>
  name: string
  name_en: string
  icon: string
  sort: number
}

export interface MallCategoriesTable {
  id: Generated<number>
  parent_id: number | null
  name: string
  /** Added by 0007 with '' as default; the service shows `name` while it is blank. */
  name_en: Generated<string>
  sort: number
}

export interface BannersTable {
  id: Generated<number>
  /** 0 = home, 1 = category page (spec §7 /mall/advertis/{0,1}). */
  position: number
  title: string
  /** Added by 0007 with '' as default; the service shows `title` while it is blank. */
  title_en: Generated<string>
  image: string
  link: string
  sort: number
  active_from: number
  active_until: number | null
}

export interface SpecialsTable {
  id: Generated<number>
  title: string
  subtitle: string
  description: string
  cover: string
  starts_at: number
  ends_at: number
  stagger_seconds: number
  soft_close_window_seconds: number
  soft_close_extend_seconds: number
  created_at: number
}

/** Item fields shared by lots and mall items. */
interface ItemColumns {
  id: Generated<number>
  title: string
  subtitle: string
  description: string
  /** JSON array of image URLs. */
  images: string
  grade_code: number
  grading_service: string | null
  cert_no: string | null
  year: string
  denomination: string
  material: string
  export_banned: number
  created_at: number
}

export interface LotsTable extends ItemColumns {
  special_id: number
  lot_no: number
  category_id: number | null
  start_price: number
  reserve_price: number | null
  starts_at: number
  ends_at: number
  /** 'open' until the sweeper closes it as 'sold' or 'unsold'. */
  status: string
  price: number | null
  bid_count: number
  leader_id: number | null
  /** When the leader's standing maximum was set. */
  leader_since: Generated<number>
}

export interface MallItemsTable extends ItemColumns {
  product_no: string
  category_id: number | null
  price: number
  stock: number
  sold: number
  limit_per_user: number | null
  on_sale: number
}

export interface BidsTable {
  id: Generated<number>
  lot_id: number
  user_id: number
  amount: number
  /** 1 when placed by the proxy engine on a bidder's behalf. */
  auto: number
  created_at: number
}

export interface PriceStepsTable {
  from_amount: number
  step: number
}

export interface ProxiesTable {
  lot_id: number
  user_id: number
  max_amount: number
  since: number
  active: number
  cancelled_at: number | null
  updated_at: number
}

export interface LedgerAccountsTable {
  id: Generated<number>
  /** 0 for the platform's own accounts. */
  user_id: number
  kind: string
  balance: number
}

export interface LedgerTransfersTable {
  id: Generated<number>
  kind: string
  memo: string
  created_at: number
}

export interface LedgerPostingsTable {
  id: Generated<number>
  transfer_id: number
  account_id: number
  amount: number
}

export interface OrdersTable {
  id: Generated<number>
  user_id: number
  kind: string
  lot_id: number | null
  mall_item_id: number | null
  quantity: number
  amount: number
  fee: number
  total: number
  status: string
  due_at: number | null
  created_at: number
  paid_at: number | null
  /** What a coupon took off (0008). */
  discount: Generated<number>
  user_coupon_id: number | null
  /** 'balance' | 'wechat' | 'remittance' once chosen; a remittance order does not expire. */
  pay_method: string | null
  cancelled_at: number | null
  /** The payment that paid (or, pending, is paying) it (0009). */
  payment_id: Generated<number | null>
}

export interface PayPasswordsTable {
  user_id: number
  hash: string
  failed_tries: number
  locked_until: number | null
  updated_at: number
}

export interface PaymentsTable {
  id: Generated<number>
  user_id: number
  /** 'balance' | 'wechat' | 'remittance' */
  method: string
  /** 'pending' | 'paid' | 'failed' */
  status: string
  amount: number
  prepay_id: string | null
  transaction_id: string | null
  transfer_id: number | null
  created_at: number
  paid_at: number | null
  /** When `prepay_id` was issued (0010); the platform lets it lapse after two hours. */
  prepay_at: number | null
}

export interface PaymentOrdersTable {
  payment_id: number
  order_id: number
}

export interface RechargesTable {
  id: Generated<number>
  user_id: number
  amount: number
  fee: number
  /** 'pending' | 'paid' | 'failed' */
  status: string
  prepay_id: string | null
  transaction_id: string | null
  transfer_id: number | null
  created_at: number
  paid_at: number | null
  /** When `prepay_id` was issued (0010). */
  prepay_at: number | null
}

export interface CompanyBanksTable {
  id: Generated<number>
  bank_name: string
  branch: string
  account_name: string
  account_no: string
  active: number
  sort: number
}

export interface RemittancesTable {
  id: Generated<number>
  user_id: number
  company_bank_id: number
  amount: number
  payer_name: string
  payer_bank: string
  remitted_on: string
  /** JSON array of order ids. */
  order_ids: string
  receipt: string | null
  /** 'submitted' | 'confirmed' | 'rejected' */
  status: string
  note: string | null
  transfer_id: number | null
  created_at: number
  decided_at: number | null
  /** What staff found on the company's account when confirming (0010); null until then. */
  amount_received: number | null
}

export interface WithdrawalsTable {
  id: Generated<number>
  user_id: number
  amount: number
  /** 'balance' | 'deposit' */
  source: string
  bank_name: string
  account_name: string
  account_no: string
  /** 'requested' | 'paid' | 'refused' */
  status: string
  note: string | null
  created_at: number
  decided_at: number | null
}

export interface CouponsTable {
  id: Generated<number>
  title: string
  /** 'amount' | 'percent' (packages/domain/src/coupons.ts). */
  kind: string
  threshold: number
  amount: number | null
  percent: number | null
  cap: number | null
  total: number
  /** How many have been received; never above `total`. */
  issued: Generated<number>
  per_user: number
  starts_at: number
  ends_at: number
  /** JSON arrays; both empty = the whole mall. */
  product_nos: string
  category_ids: string
  created_at: number
}

export interface UserCouponsTable {
  id: Generated<number>
  coupon_id: number
  user_id: number
  /** 'usable' | 'locked' (held by an unpaid order) | 'used'. */
  status: string
  order_id: number | null
  received_at: number
  used_at: number | null
}

export interface MallWatchesTable {
  user_id: number
  mall_item_id: number
  created_at: number
}

export interface WatchesTable {
  user_id: number
  lot_id: number
  created_at: number
}

/** Ending-soon reminders sent (0005): one row per user and lot, kept when the watch is removed. */
export interface LotRemindersTable {
  user_id: number
  lot_id: number
  sent_at: number
}

/** A user's notices (0010): outbid, ending soon, won, money decided… rendered by the web app. */
export interface NoticesTable {
  id: Generated<number>
  user_id: number
  kind: string
  /** JSON object. */
  params: Generated<string>
  link: string | null
  created_at: number
  read_at: number | null
}

export interface IdempotencyKeysTable {
  user_id: number
  key: string
  request_hash: string
  status: number
  body: string
  created_at: number
}

/** A user's shipping addresses (0011); exactly one is the default while they have any. */
export interface AddressesTable {
  id: Generated<number>
  user_id: number
  name: string
  mobile: string
  country_id: string
  province_id: string | null
  province_name: string | null
  city_id: string | null
  city_name: string | null
  detail: string
  /** 0 or 1. */
  is_default: Generated<number>
  created_at: number
  updated_at: number
}

/** Shipments of paid orders (0012): express to an address or self-pickup by appointment. */
export interface ShipmentsTable {
  id: Generated<number>
  user_id: number
  /** 'express' | 'pickup' */
  method: string
  /** 'applied' | 'shipped' | 'completed' */
  status: string
  /** JSON ShipmentAddress (express). */
  address: string | null
  country_id: string | null
  pickup_date: string | null
  pickup_slot: string | null
  insured: Generated<number>
  declared_value: number
  shipping_fee: number
  insurance_fee: number
  storage_fee: number
  total: number
  transfer_id: number | null
  carrier: string | null
  tracking_no: string | null
  applied_at: number
  shipped_at: number | null
  completed_at: number | null
  auto_complete_at: number | null
}

export interface ShipmentOrdersTable {
  shipment_id: number
  order_id: number
}

/** Counter cash bookings of unpaid orders (0012). */
export interface BookingsTable {
  id: Generated<number>
  user_id: number
  date: string
  slot: string
  /** 'booked' | 'completed' | 'cancelled' */
  status: string
  total: number
  transfer_id: number | null
  created_at: number
  completed_at: number | null
}

export interface BookingOrdersTable {
  booking_id: number
  order_id: number
}

/** Places taken per counter slot (0012). */
export interface SlotCountsTable {
  date: string
  slot: string
  booked: Generated<number>
}

/** Open ids linked to accounts, per official account (0013). */
export interface WechatLinksTable {
  id: Generated<number>
  app_id: string
  openid: string
  user_id: number
  unionid: string | null
  nickname: string
  avatar: string
  created_at: number
}

/** Tokens a first-time open id binds a mobile number with, stored hashed (0013). */
export interface WechatBindTokensTable {
  token_hash: string
  app_id: string
  openid: string
  unionid: string | null
  nickname: string
  avatar: string
  created_at: number
  expires_at: number
  used_at: number | null
}

/** OAuth codes already exchanged (0013). */
export interface WechatOauthCodesTable {
  app_id: string
  code_hash: string
  claimed_at: number
}

/** The platform's server-wide credentials, shared by the instances (0013). */
export interface PlatformTokensTable {
  name: string
  value: string
  expires_at: number
  updated_at: number
  lease_until: Generated<number>
}

/** Issue 11 · the customer-service chat (migration 0014). */
export interface ChatConversationsTable {
  id: Generated<number>
  user_id: number
  agent_id: string
  created_at: number
  updated_at: number
  user_read_upto: Generated<number>
  agent_read_upto: Generated<number>
}

export interface ChatMessagesTable {
  id: Generated<number>
  conversation_id: number
  /** 'user' | 'agent' */
  sender: string
  staff_id: number | null
  /** 'text' | 'image' | 'card' */
  kind: string
  text: string | null
  image_key: string | null
  /** JSON ChatCard. */
  card: string | null
  client_id: string
  created_at: number
}

export interface ChatImagesTable {
  key: string
  conversation_id: number
  /** The re-encoded JPEG (bytea / blob). */
  jpeg: Buffer
  bytes: number
  created_at: number
}

// Issue 12 · catalogue area tables go here.
export interface CataloguePhotosTable {
  key: string
  full_jpeg: Buffer
  detail_jpeg: Buffer
  thumb_jpeg: Buffer
  width: number
  height: number
  staff_id: number
  created_at: number
}

// Issue 12 · settings area tables go here.

// Issue 12 · sales area tables go here.
/** Relisted lots (0017): the old lot, the new one it became, once. */
export interface LotRelistsTable {
  lot_id: number
  new_lot_id: number
  special_id: number
  staff_id: number
  created_at: number
}

// Issue 12 · money area tables go here.
/** A paid order the cashier refunded (0018): once per order. */
export interface OrderRefundsTable {
  id: Generated<number>
  order_id: number
  user_id: number
  amount: number
  fee: number
  reason: string
  transfer_id: number
  staff_id: number
  balance_before: number
  balance_after: number
  created_at: number
}

// Issue 12 · fulfilment area tables go here.

export interface DB {
  wechat_links: WechatLinksTable
  wechat_bind_tokens: WechatBindTokensTable
  wechat_oauth_codes: WechatOauthCodesTable
  platform_tokens: PlatformTokensTable
  shipments: ShipmentsTable
  shipment_orders: ShipmentOrdersTable
  bookings: BookingsTable
  booking_orders: BookingOrdersTable
  slot_counts: SlotCountsTable
  notices: NoticesTable
  proxies: ProxiesTable
  ledger_accounts: LedgerAccountsTable
  ledger_transfers: LedgerTransfersTable
  ledger_postings: LedgerPostingsTable
  orders: OrdersTable
  coupons: CouponsTable
  user_coupons: UserCouponsTable
  mall_watches: MallWatchesTable
  pay_passwords: PayPasswordsTable
  payments: PaymentsTable
  payment_orders: PaymentOrdersTable
  recharges: RechargesTable
  company_banks: CompanyBanksTable
  remittances: RemittancesTable
  withdrawals: WithdrawalsTable
  watches: WatchesTable
  lot_reminders: LotRemindersTable
  idempotency_keys: IdempotencyKeysTable
  bids: BidsTable
  price_steps: PriceStepsTable
  categories: CategoriesTable
  mall_categories: MallCategoriesTable
  banners: BannersTable
  specials: SpecialsTable
  lots: LotsTable
  mall_items: MallItemsTable
  settings: SettingsTable
  users: UsersTable
  sessions: SessionsTable
  sms_codes: SmsCodesTable
  request_nonces: RequestNoncesTable
  staff_users: StaffUsersTable
  staff_sessions: StaffSessionsTable
  staff_roles: StaffRolesTable
  staff_audit: StaffAuditTable
  // Issue 12 · catalogue area tables.
  catalogue_photos: CataloguePhotosTable
  // Issue 12 · settings area tables.
  // Issue 12 · sales area tables.
  lot_relists: LotRelistsTable
  // Issue 12 · money area tables.
  order_refunds: OrderRefundsTable
  // Issue 12 · fulfilment area tables.
  addresses: AddressesTable
  chat_conversations: ChatConversationsTable
  chat_messages: ChatMessagesTable
  chat_images: ChatImagesTable
}
