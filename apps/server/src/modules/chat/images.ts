import { CHAT_IMAGE_STORED_MAX_BYTES } from '@numisma/contracts/chat'
import sharp from 'sharp'
import { dataUrlToJpeg } from '../../platform/images'

/** The longer side of a stored chat picture: a photo of a coin stays sharp on a phone. */
export const CHAT_IMAGE_MAX_PX = 1600

/**
 * The shrink for a picture still over the byte cap at full size (a photo of a coin never gets
 * here; a busy or noisy one does): one encode at a side chosen from the byte ratio (bytes go with
 * pixels), a second, smaller and coarser, only if that one is still over. Plain libjpeg: mozjpeg
 * costs seconds on a large noisy picture for a few per cent.
 */
const SHRINK = { margin: 0.8, quality: 72, again: 0.7, againQuality: 56, minPx: 480 } as const

/** Pictures decoded at once per process: each takes a core for up to a second or two. */
export const CHAT_IMAGE_DECODES_AT_ONCE = 2

let decoding = 0
const waiting: (() => void)[] = []

/** Runs `work` (a picture's checks and decoding) once fewer than CHAT_IMAGE_DECODES_AT_ONCE run. */
export async function limitDecodes<T>(work: () => Promise<T>): Promise<T> {
  if (decoding >= CHAT_IMAGE_DECODES_AT_ONCE) await new Promise<void>((r) => waiting.push(r))
  decoding++
  try {
    return await work()
  } finally {
    decoding--
    waiting.shift()?.()
  }
}

function shrink(full: Buffer, side: number, quality: number): Promise<Buffer> {
  return sharp(full)
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality, mozjpeg: false })
    .toBuffer()
}

/**
 * A data URL to the JPEG we keep (ADR 018): checked and re-encoded by platform/images.ts, then,
 * when it weighs more than CHAT_IMAGE_STORED_MAX_BYTES, re-encoded smaller (twice at most), since
 * every picture lives in the database. Callers run it under limitDecodes.
 */
export const chatImages = {
  async normalise(dataUrl: string): Promise<Buffer> {
    {
      const full = await dataUrlToJpeg(dataUrl, {
        maxPx: CHAT_IMAGE_MAX_PX,
        invalid: 'CHAT_IMAGE_INVALID',
      })
      if (full.length <= CHAT_IMAGE_STORED_MAX_BYTES) return full
      const meta = await sharp(full).metadata()
      const longest = Math.max(meta.width ?? CHAT_IMAGE_MAX_PX, meta.height ?? CHAT_IMAGE_MAX_PX)
      const ratio = (CHAT_IMAGE_STORED_MAX_BYTES / full.length) * SHRINK.margin
      const side = Math.max(SHRINK.minPx, Math.floor(longest * Math.sqrt(ratio)))
      const first = await shrink(full, side, SHRINK.quality)
      if (first.length <= CHAT_IMAGE_STORED_MAX_BYTES) return first
      return shrink(
        full,
        Math.max(SHRINK.minPx, Math.floor(side * SHRINK.again)),
        SHRINK.againQuality,
      )
    }
  },
}
