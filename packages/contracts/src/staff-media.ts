import { z } from 'zod'

/**
 * Photos staff upload for lots, mall items and banners (issue 12): the console posts the picture
 * as a data URL; the server re-encodes it with sharp into its sizes and keeps them in the database
 * (every instance serves them, as chat pictures). The URLs are immutable: a new photo, a new key.
 */
export const PHOTO_SIZES = { full: 1600, detail: 800, thumb: 400 } as const
export type PhotoSize = keyof typeof PHOTO_SIZES

/** `/svc/media/photos/<key>/<size>.jpg` */
export const photoUrl = (key: string, size: PhotoSize): string =>
  `/svc/media/photos/${key}/${size}.jpg`

/** A photo URL's key, or null when the URL is not one of ours (an older demo artwork URL). */
export function photoKeyOf(url: string): string | null {
  return /^\/svc\/media\/photos\/([a-f0-9]{32})\/(?:full|detail|thumb)\.jpg$/.exec(url)?.[1] ?? null
}

export const PhotoUploadSchema = z.object({
  /** `data:image/jpeg|png|webp;base64,…`, at most 15 MB of picture. */
  dataUrl: z.string().max(21_000_000),
})
export type PhotoUpload = z.infer<typeof PhotoUploadSchema>

export const PhotoSchema = z.object({
  key: z.string(),
  /** The full size (longest side PHOTO_SIZES.full): what `images` of a lot or item holds. */
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
})
export type Photo = z.infer<typeof PhotoSchema>
