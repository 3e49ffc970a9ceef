import { randomBytes } from 'node:crypto'
import { PHOTO_SIZES, type Photo, type PhotoSize, photoUrl } from '@numisma/contracts/staff-media'
import sharp from 'sharp'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import { dataUrlToJpeg } from '../../platform/images'
import { PhotoRepository } from './photos-repository'

/** Photos encoded at once per process: each takes a core for a second or two (as chat's, ADR 018). */
export const PHOTO_ENCODES_AT_ONCE = 2

let encoding = 0
const waiting: (() => void)[] = []

async function limitEncodes<T>(work: () => Promise<T>): Promise<T> {
  while (encoding >= PHOTO_ENCODES_AT_ONCE) await new Promise<void>((r) => waiting.push(r))
  encoding++
  try {
    return await work()
  } finally {
    encoding--
    waiting.shift()?.()
  }
}

export interface EncodedPhoto {
  full: Buffer
  detail: Buffer
  thumb: Buffer
  width: number
  height: number
}

const smaller = (full: Buffer, side: number): Promise<Buffer> =>
  sharp(full)
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80, mozjpeg: false })
    .toBuffer()

/**
 * A data URL to the sizes we keep: platform/images checks it is a picture, turns it upright and
 * drops its metadata at the full size; the detail and thumbnail sizes are made from that JPEG.
 */
export async function encodePhoto(dataUrl: string): Promise<EncodedPhoto> {
  const full = await dataUrlToJpeg(dataUrl, { maxPx: PHOTO_SIZES.full, invalid: 'PHOTO_INVALID' })
  const [meta, detail, thumb] = await Promise.all([
    sharp(full).metadata(),
    smaller(full, PHOTO_SIZES.detail),
    smaller(full, PHOTO_SIZES.thumb),
  ])
  return { full, detail, thumb, width: meta.width ?? 0, height: meta.height ?? 0 }
}

export interface PhotoDeps {
  clock: Clock
  photos: Pick<PhotoRepository, keyof PhotoRepository>
  encode: (dataUrl: string) => Promise<EncodedPhoto>
  newKey: () => string
}

/** Staff's catalogue photos (lots, mall items, banners): stored once, served by key and size. */
export class PhotoService {
  constructor(private readonly deps: PhotoDeps) {}

  static forDatabase(database: Database, clock: Clock): PhotoService {
    return new PhotoService({
      clock,
      photos: new PhotoRepository(database.db),
      encode: encodePhoto,
      newKey: () => randomBytes(16).toString('hex'),
    })
  }

  async upload(staffId: number, dataUrl: string): Promise<Photo> {
    const encoded = await limitEncodes(() => this.deps.encode(dataUrl))
    const key = this.deps.newKey()
    await this.deps.photos.insert({
      key,
      full_jpeg: encoded.full,
      detail_jpeg: encoded.detail,
      thumb_jpeg: encoded.thumb,
      width: encoded.width,
      height: encoded.height,
      staff_id: staffId,
      created_at: this.deps.clock.now(),
    })
    return {
      key,
      url: photoUrl(key, 'full'),
      thumbUrl: photoUrl(key, 'thumb'),
      width: encoded.width,
      height: encoded.height,
    }
  }

  jpeg(key: string, size: PhotoSize): Promise<Buffer | undefined> {
    return this.deps.photos.jpeg(key, size)
  }
}
