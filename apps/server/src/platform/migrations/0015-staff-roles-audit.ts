import { type Kysely, sql } from 'kysely'
import type { MigrationContext } from './index'

/**
 * The operator console (issue 12, ADR 021): staff roles (several per account), disabling an
 * account, and the audit log of every staff call that changes something. Accounts made before
 * roles existed (the bootstrap `admin`) keep all powers as admins.
 */
export function staffRolesAudit({ id, time }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('staff_users').addColumn('disabled_at', time).execute()
      await db.schema
        .createTable('staff_roles')
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('staff_roles_pk', ['staff_id', 'role'])
        .execute()
      await sql`insert into staff_roles (staff_id, role) select id, 'admin' from staff_users`.execute(
        db,
      )

      await id(db.schema.createTable('staff_audit'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id'))
        // As signed in then: the account may be renamed or disabled later.
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        // The route's pattern (`/svc/main/admin/lots/:id`), and its summary for people.
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        // What the call acted on, when it says (`lot:12`); else null.
        .addColumn('target', 'text')
        // JSON texts, secrets redacted and long values cut.
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        // The call's Idempotency-Key: a retry answered from the first result shows as a repeat.
        .addColumn('idempotency_key', 'text')
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('error_code', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('staff_audit_staff')
        .on('staff_audit')
        .columns(['staff_id', 'id'])
        .execute()
      await db.schema.createIndex('staff_audit_target').on('staff_audit').column('target').execute()
    },
  }
}
