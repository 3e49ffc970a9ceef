import type { ErrorCode } from '@numisma/contracts/errors'
import sharp from 'sharp'
import { AppError } from './errors'

/**
 * Larger pictures are refused from their header, before any decoding: a phone's 12–24 megapixel
 * photo passes, while a small file that would decode to hundreds of megabytes (a decompression
 * bomb) costs neither the memory nor the seconds of CPU. sharp's own limit backs the check up.
 */
export const MAX_INPUT_PIXELS = 25_000_000
const FORMATS = new Set(['jpeg', 'png', 'webp'])

export interface JpegOptions {
  /** The longer side of what is kept. */
  maxPx: number
  /** The error a picture that is no picture (or too large) answers with. */
  invalid: ErrorCode
}

/**
 * Decodes a picture a user sent as a data URL, checks it is a JPEG, PNG or WebP picture that
 * decodes whole, and re-encodes it as a JPEG of at most `maxPx` on its longer side, turned upright
 * by its EXIF orientation and without any metadata (sharp writes none unless asked: no location, no
 * camera). Re-encoding means we never store or serve bytes a user chose — a polyglot or a malformed
 * file that a viewer might mis-read goes no further than here. Shared by remittance receipts
 * (modules/finance) and chat pictures (modules/chat).
 */
export async function dataUrlToJpeg(dataUrl: string, options: JpegOptions): Promise<Buffer> {
  const comma = dataUrl.indexOf(',')
  const input = Buffer.from(dataUrl.slice(comma + 1), 'base64')
  if (comma < 0 || input.length === 0) throw new AppError(options.invalid)
  try {
    // The header only (sharp decodes nothing for metadata), read without sharp's own pixel
    // limit so that an oversized picture is told apart from one that is no picture.
    const meta = await sharp(input, { limitInputPixels: false }).metadata()
    if (meta.format === undefined || !FORMATS.has(meta.format)) {
      throw new AppError(options.invalid, { format: meta.format ?? null })
    }
    const pixels = (meta.width ?? 0) * (meta.height ?? 0)
    if (pixels > MAX_INPUT_PIXELS) {
      throw new AppError(options.invalid, { tooLarge: true, pixels, max: MAX_INPUT_PIXELS })
    }
    const image = sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
    return await image
      .rotate()
      .resize({
        width: options.maxPx,
        height: options.maxPx,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer()
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError(options.invalid)
  }
}
