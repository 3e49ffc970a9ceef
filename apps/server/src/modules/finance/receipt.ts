import sharp from 'sharp'
import { AppError } from '../../platform/errors'

/** The longer side of a stored receipt; a phone photo of a bank slip stays legible at this size. */
export const RECEIPT_MAX_PX = 1600
/** Larger pictures are refused before they are decoded (a 50-megapixel slip is no slip). */
const MAX_INPUT_PIXELS = 50_000_000
const FORMATS = new Set(['jpeg', 'png', 'webp'])

/** Turns the receipt a user sent into what we keep; throws RECEIPT_INVALID when it is no picture. */
export interface ReceiptDecoder {
  normalise(dataUrl: string): Promise<Buffer>
}

/**
 * Decodes the photo of a bank slip, checks it is a JPEG, PNG or WebP picture that decodes whole,
 * and re-encodes it as a JPEG of at most 1600 px on its longer side, turned upright by its EXIF
 * orientation and without any metadata (sharp writes none unless asked: no location, no camera).
 * Re-encoding means we never store or serve bytes a user chose — a polyglot or a malformed file
 * that a viewer might mis-read goes no further than here.
 */
export const sharpReceipts: ReceiptDecoder = {
  async normalise(dataUrl) {
    const comma = dataUrl.indexOf(',')
    const input = Buffer.from(dataUrl.slice(comma + 1), 'base64')
    if (comma < 0 || input.length === 0) throw new AppError('RECEIPT_INVALID')
    try {
      const image = sharp(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      const meta = await image.metadata()
      if (meta.format === undefined || !FORMATS.has(meta.format)) {
        throw new AppError('RECEIPT_INVALID', { format: meta.format ?? null })
      }
      return await image
        .rotate()
        .resize({
          width: RECEIPT_MAX_PX,
          height: RECEIPT_MAX_PX,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer()
    } catch (error) {
      if (error instanceof AppError) throw error
      throw new AppError('RECEIPT_INVALID')
    }
  },
}
