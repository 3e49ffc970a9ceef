import type { Kysely } from 'kysely'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

export interface WechatLink {
  userId: number
  openid: string
}

export interface BindTokenRow {
  token_hash: string
  app_id: string
  openid: string
  unionid: string | null
  nickname: string
  avatar: string
  expires_at: number
  used_at: number | null
}

export interface PlatformTokenRow {
  name: string
  value: string
  expires_at: number
  lease_until: number
}

/** A claimed code is kept this long, well past the platform's 5-minute code lifetime. */
const CODE_CLAIM_KEPT_MS = 24 * 3600_000

/** All SQL of the messaging platform's sign-in and sharing (migration 0013). */
export class WechatRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Claims an OAuth code for exchange: true for the first caller only, on any instance (the
   * primary key decides). Old claims are dropped on the way.
   */
  async claimCode(appId: string, codeHash: string, now: number): Promise<boolean> {
    await this.db
      .deleteFrom('wechat_oauth_codes')
      .where('claimed_at', '<', now - CODE_CLAIM_KEPT_MS)
      .execute()
    const inserted = await this.db
      .insertInto('wechat_oauth_codes')
      .values({ app_id: appId, code_hash: codeHash, claimed_at: now })
      .onConflict((oc) => oc.columns(['app_id', 'code_hash']).doNothing())
      .returning('code_hash')
      .executeTakeFirst()
    return inserted !== undefined
  }

  /** Gives a code back when the platform could not be asked (it may still be good). */
  async releaseCode(appId: string, codeHash: string): Promise<void> {
    await this.db
      .deleteFrom('wechat_oauth_codes')
      .where('app_id', '=', appId)
      .where('code_hash', '=', codeHash)
      .execute()
  }

  async linkOfOpenid(appId: string, openid: string, db: Tx = this.db) {
    const row = await db
      .selectFrom('wechat_links')
      .select(['user_id', 'openid'])
      .where('app_id', '=', appId)
      .where('openid', '=', openid)
      .executeTakeFirst()
    return row && { userId: row.user_id, openid: row.openid }
  }

  async linkOfUser(appId: string, userId: number, db: Tx = this.db) {
    const row = await db
      .selectFrom('wechat_links')
      .select(['user_id', 'openid'])
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row && { userId: row.user_id, openid: row.openid }
  }

  /** False when either side got linked meanwhile (the unique keys decide). */
  async insertLink(
    tx: Tx,
    link: {
      appId: string
      openid: string
      userId: number
      unionid: string | null
      nickname: string
      avatar: string
      now: number
    },
  ): Promise<boolean> {
    const inserted = await tx
      .insertInto('wechat_links')
      .values({
        app_id: link.appId,
        openid: link.openid,
        user_id: link.userId,
        unionid: link.unionid,
        nickname: link.nickname,
        avatar: link.avatar,
        created_at: link.now,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst()
    return inserted !== undefined
  }

  async insertBindToken(token: Omit<BindTokenRow, 'used_at'> & { created_at: number }) {
    await this.db
      .deleteFrom('wechat_bind_tokens')
      .where('expires_at', '<', token.created_at)
      .execute()
    await this.db
      .insertInto('wechat_bind_tokens')
      .values({ ...token, used_at: null })
      .execute()
  }

  bindToken(tokenHash: string): Promise<BindTokenRow | undefined> {
    return this.db
      .selectFrom('wechat_bind_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()
  }

  /** Uses a token up: false when it was used (by a concurrent binding) or expired meanwhile. */
  async useBindToken(tx: Tx, tokenHash: string, now: number): Promise<boolean> {
    const result = await tx
      .updateTable('wechat_bind_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    return result.numUpdatedRows === 1n
  }

  platformToken(name: string): Promise<PlatformTokenRow | undefined> {
    return this.db
      .selectFrom('platform_tokens')
      .select(['name', 'value', 'expires_at', 'lease_until'])
      .where('name', '=', name)
      .executeTakeFirst()
  }

  /**
   * Takes the right to refresh a token: true for one caller among instances, while the stored
   * value is stale (`expires_at <= freshUntil`) and nobody else holds an unexpired lease. A
   * conditional write, so the database decides between racing instances.
   */
  async takeTokenLease(
    name: string,
    staleAt: number,
    now: number,
    leaseUntil: number,
  ): Promise<boolean> {
    const inserted = await this.db
      .insertInto('platform_tokens')
      .values({ name, value: '', expires_at: 0, updated_at: now, lease_until: leaseUntil })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst()
    if (inserted) return true
    const updated = await this.db
      .updateTable('platform_tokens')
      .set({ lease_until: leaseUntil })
      .where('name', '=', name)
      .where('expires_at', '<=', staleAt)
      .where('lease_until', '<=', now)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /**
   * Stores a fetched value only while the caller's lease (`leaseUntil`, as taken) is still the
   * row's: false when it lapsed and another instance took over, whose value must not be overwritten.
   */
  async storeToken(
    name: string,
    value: string,
    expiresAt: number,
    now: number,
    leaseUntil: number,
  ): Promise<boolean> {
    const updated = await this.db
      .updateTable('platform_tokens')
      .set({ value, expires_at: expiresAt, updated_at: now, lease_until: 0 })
      .where('name', '=', name)
      .where('lease_until', '=', leaseUntil)
      .executeTakeFirst()
    return updated.numUpdatedRows === 1n
  }

  /** Drops a lease whose fetch failed, so another caller may try at once. */
  async releaseTokenLease(name: string, leaseUntil: number): Promise<void> {
    await this.db
      .updateTable('platform_tokens')
      .set({ lease_until: 0 })
      .where('name', '=', name)
      .where('lease_until', '=', leaseUntil)
      .execute()
  }

  /**
   * Marks every stored token stale: for a server whose platform is the sandbox in its own process,
   * which forgets what it issued when the process ends (app.ts, at start).
   */
  async forgetTokens(): Promise<void> {
    await this.db.updateTable('platform_tokens').set({ expires_at: 0 }).execute()
  }

  /** Marks a stored token stale when the platform refused it (only if it is still that one). */
  async expireToken(name: string, value: string): Promise<void> {
    await this.db
      .updateTable('platform_tokens')
      .set({ expires_at: 0 })
      .where('name', '=', name)
      .where('value', '=', value)
      .execute()
  }
}
