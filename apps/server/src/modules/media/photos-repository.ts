import type { Insertable, Kysely } from 'kysely'
import type { CataloguePhotosTable, DB } from '../../platform/schema'
import type { PhotoSize } from '@numisma/contracts/staff-media'

const COLUMN = { full: 'full_jpeg', detail: 'detail_jpeg', thumb: 'thumb_jpeg' } as const

/** The catalogue photos' SQL: one row per photo, one column per size. */
export class PhotoRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<CataloguePhotosTable>): Promise<void> {
    await this.db.insertInto('catalogue_photos').values(row).execute()
  }

  /** One size's JPEG (only that column is read), or undefined for an unknown key. */
  async jpeg(key: string, size: PhotoSize): Promise<Buffer | undefined> {
    const column = COLUMN[size]
    const row = await this.db
      .selectFrom('catalogue_photos')
      .select(column)
      .where('key', '=', key)
      .executeTakeFirst()
    return row ? Buffer.from(row[column] as Uint8Array) : undefined
  }
}
