import type { StaffMember, StaffRole } from '@numisma/contracts/staff'
import type { Kysely } from 'kysely'
import type { Dialect } from '../../platform/db'
import type { DB } from '../../platform/schema'
import type { Tx } from '../../platform/transactions'

const asRoles = (rows: { role: string }[]): StaffRole[] => rows.map((r) => r.role as StaffRole)

export class StaffRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  findByUsername(username: string) {
    return this.db
      .selectFrom('staff_users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst()
  }

  /** Creates the account with these roles unless the name is taken; its id, or null. */
  async create(
    tx: Tx,
    account: { username: string; passwordHash: string; roles: readonly StaffRole[]; now: number },
  ): Promise<number | null> {
    const row = await tx
      .insertInto('staff_users')
      .values({
        username: account.username,
        password_hash: account.passwordHash,
        created_at: account.now,
      })
      .onConflict((oc) => oc.column('username').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!row) return null
    const id = row.id
    await this.setRoles(tx, id, account.roles)
    return id
  }

  async setRoles(tx: Tx, staffId: number, roles: readonly StaffRole[]): Promise<void> {
    await tx.deleteFrom('staff_roles').where('staff_id', '=', staffId).execute()
    if (roles.length > 0)
      await tx
        .insertInto('staff_roles')
        .values(roles.map((role) => ({ staff_id: staffId, role })))
        .execute()
  }

  async rolesOf(tx: Tx, staffId: number): Promise<StaffRole[]> {
    const rows = await tx
      .selectFrom('staff_roles')
      .select('role')
      .where('staff_id', '=', staffId)
      .orderBy('role')
      .execute()
    return asRoles(rows)
  }

  /** The account's row, locked (an update judges the admins left under it). */
  lockAccount(tx: Tx, staffId: number) {
    const query = tx
      .selectFrom('staff_users')
      .select(['id', 'username', 'disabled_at'])
      .where('id', '=', staffId)
    // SQLite's write transaction already holds everything.
    return (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst()
  }

  /**
   * Locks every admin account's row (PostgreSQL; SQLite's write transaction holds everything), so
   * two admins demoting each other at once are judged one after the other.
   */
  async lockAdmins(tx: Tx): Promise<void> {
    if (this.dialect !== 'postgres') return
    await tx
      .selectFrom('staff_users')
      .innerJoin('staff_roles', 'staff_roles.staff_id', 'staff_users.id')
      .select('staff_users.id')
      .where('staff_roles.role', '=', 'admin')
      .orderBy('staff_users.id')
      .forUpdate()
      .execute()
  }

  /** Enabled accounts holding the admin role, as this statement sees them. */
  async activeAdmins(tx: Tx): Promise<number> {
    const row = await tx
      .selectFrom('staff_roles')
      .innerJoin('staff_users', 'staff_users.id', 'staff_roles.staff_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('staff_roles.role', '=', 'admin')
      .where('staff_users.disabled_at', 'is', null)
      .executeTakeFirstOrThrow()
    return row.n
  }

  async update(
    tx: Tx,
    staffId: number,
    change: { passwordHash?: string; disabledAt?: number | null },
  ): Promise<void> {
    const values = {
      ...(change.passwordHash === undefined ? {} : { password_hash: change.passwordHash }),
      ...(change.disabledAt === undefined ? {} : { disabled_at: change.disabledAt }),
    }
    if (Object.keys(values).length === 0) return
    await tx.updateTable('staff_users').set(values).where('id', '=', staffId).execute()
  }

  async list(): Promise<StaffMember[]> {
    const [users, roles] = await Promise.all([
      this.db
        .selectFrom('staff_users')
        .select(['id', 'username', 'disabled_at', 'created_at'])
        .orderBy('id')
        .execute(),
      this.db.selectFrom('staff_roles').select(['staff_id', 'role']).orderBy('role').execute(),
    ])
    return users.map((u) => ({
      id: u.id,
      username: u.username,
      roles: asRoles(roles.filter((r) => r.staff_id === u.id)),
      disabled: u.disabled_at !== null,
      createdAt: new Date(u.created_at).toISOString(),
    }))
  }

  async insertSession(sidHash: string, staffId: number, now: number, expiresAt: number) {
    await this.db
      .insertInto('staff_sessions')
      .values({ sid_hash: sidHash, staff_id: staffId, created_at: now, expires_at: expiresAt })
      .execute()
  }

  /** A live session of an enabled account, with its roles. */
  async findSession(sidHash: string, now: number) {
    const row = await this.db
      .selectFrom('staff_sessions')
      .innerJoin('staff_users', 'staff_users.id', 'staff_sessions.staff_id')
      .select(['staff_users.id as staffId', 'staff_users.username'])
      .where('staff_sessions.sid_hash', '=', sidHash)
      .where('staff_sessions.expires_at', '>', now)
      .where('staff_users.disabled_at', 'is', null)
      .executeTakeFirst()
    if (!row) return undefined
    const { staffId } = row
    return { staffId, username: row.username, roles: await this.rolesOf(this.db, staffId) }
  }

  async deleteSession(sidHash: string): Promise<void> {
    await this.db.deleteFrom('staff_sessions').where('sid_hash', '=', sidHash).execute()
  }

  async deleteSessionsOf(tx: Tx, staffId: number): Promise<void> {
    await tx.deleteFrom('staff_sessions').where('staff_id', '=', staffId).execute()
  }
}
