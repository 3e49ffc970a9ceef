import type { Kysely } from 'kysely'
import type { MigrationContext } from './index'

/**
 * Issue 12 · the console's catalogue photos: each uploaded picture re-encoded into the sizes of
 * contracts/staff-media (PHOTO_SIZES), kept in the database like chat pictures so that every
 * instance serves them. A key is random and never reused: its URLs are immutable.
 */
export function cataloguePhotos({ time, dialect }: MigrationContext) {
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob'
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('catalogue_photos')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('full_jpeg', bytes, (c) => c.notNull())
        .addColumn('detail_jpeg', bytes, (c) => c.notNull())
        .addColumn('thumb_jpeg', bytes, (c) => c.notNull())
        // The full size's dimensions.
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff_users.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute()
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('catalogue_photos').execute()
    },
  }
}
