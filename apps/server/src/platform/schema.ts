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
}

export interface StaffSessionsTable {
  sid_hash: string
  staff_id: number
  created_at: number
  expires_at: number
}

export interface DB {
  settings: SettingsTable
  users: UsersTable
  sessions: SessionsTable
  sms_codes: SmsCodesTable
  request_nonces: RequestNoncesTable
  staff_users: StaffUsersTable
  staff_sessions: StaffSessionsTable
}
