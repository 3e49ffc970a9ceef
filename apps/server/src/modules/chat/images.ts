import { CHAT_IMAGE_STORED_MAX_BYTES } from '@numisma/contracts/chat'
import sharp from 'sharp'
import { dataUrlToJpeg } from '../../platform/images'

/** The longer side of a stored chat picture: a photo of a coin stays sharp on a phone. */
export const CHAT_IMAGE_MAX_PX = 1600

/**
 * Smaller and coarser steps for a picture still over the byte cap at full size. A photo of a coin
 * never gets here; a busy or noisy picture (1.8 MB of noise at 1600 px) does, and the last step
 * keeps even noise well under the cap.
 */
const SHRINK_STEPS = [
  { maxPx: 1280, quality: 72 },
  { maxPx: 1024, quality: 64 },
  { maxPx: 800, quality: 56 },
  { maxPx: 640, quality: 48 },
] as const

/**
 * A data URL to the JPEG we keep (ADR 018): checked and re-encoded by platform/images.ts, then,
 * when it weighs more than CHAT_IMAGE_STORED_MAX_BYTES, re-encoded smaller until it fits, since
 * every picture lives in the database.
 */
export const chatImages = {
  async normalise(dataUrl: string): Promise<Buffer> {
    let jpeg = await dataUrlToJpeg(dataUrl, {
      maxPx: CHAT_IMAGE_MAX_PX,
      invalid: 'CHAT_IMAGE_INVALID',
    })
    const full = jpeg
    for (const step of SHRINK_STEPS) {
      if (jpeg.length <= CHAT_IMAGE_STORED_MAX_BYTES) break
      jpeg = await sharp(full)
        .resize({ width: step.maxPx, height: step.maxPx, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: step.quality, mozjpeg: true })
        .toBuffer()
    }
    return jpeg
  },
}
