import type { AuditEntry, AuditQuery } from '@numisma/contracts/staff'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../platform/schema'

/** One audit line as written (JSON texts already redacted by the guard). */
export interface AuditRecord {
  staffId: number
  username: string
  method: string
  route: string
  action: string
  target: string | null
  params: string
  body: string
  before: string | null
  after: string | null
  idempotencyKey: string | null
  statusCode: number
  errorCode: string | null
  at: number
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text))

/** All SQL of the staff audit log: append and read, never change. */
export class AuditRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async record(entry: AuditRecord): Promise<void> {
    await this.db
      .insertInto('staff_audit')
      .values({
        staff_id: entry.staffId,
        username: entry.username,
        method: entry.method,
        route: entry.route,
        action: entry.action,
        target: entry.target,
        params: entry.params,
        body: entry.body,
        before: entry.before,
        after: entry.after,
        idempotency_key: entry.idempotencyKey,
        status_code: entry.statusCode,
        error_code: entry.errorCode,
        created_at: entry.at,
      })
      .execute()
  }

  /** Newest first, `limit` lines older than `before`. */
  async list(query: AuditQuery): Promise<AuditEntry[]> {
    let select = this.db.selectFrom('staff_audit').selectAll()
    if (query.staffId !== undefined) select = select.where('staff_id', '=', query.staffId)
    if (query.route) {
      const pattern = `%${escapeLike(query.route)}%`
      select = select.where(sql<boolean>`route like ${pattern} escape '\\'`)
    }
    if (query.target) select = select.where('target', '=', query.target)
    if (query.before !== undefined) select = select.where('id', '<', query.before)
    const rows = await select.orderBy('id', 'desc').limit(query.limit).execute()
    return rows.map((row) => ({
      id: row.id,
      staffId: row.staff_id,
      username: row.username,
      method: row.method,
      route: row.route,
      action: row.action,
      target: row.target,
      params: parse(row.params),
      body: parse(row.body),
      before: parse(row.before),
      after: parse(row.after),
      idempotencyKey: row.idempotency_key,
      statusCode: row.status_code,
      errorCode: row.error_code,
      at: new Date(row.created_at).toISOString(),
    }))
  }
}

/** `%` and `_` typed into the filter are letters, not wildcards. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`)
