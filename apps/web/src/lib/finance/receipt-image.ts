/**
 * A photo of a bank slip from a phone camera is 3–8 MB; the notice carries it as a data URL. It is
 * scaled down and re-encoded as JPEG on the phone until the data URL fits, so a slow connection
 * sends a few hundred kilobytes and the server (which re-encodes it again) never sees the original.
 */

/** What the data URL may come to (characters, which is bytes on the wire). */
export const RECEIPT_MAX_CHARS = 1_500_000
/** The longest side a receipt keeps: its print stays legible well below this. */
export const RECEIPT_MAX_SIDE = 1600
const QUALITIES = [0.85, 0.72, 0.6, 0.48] as const
const SHRINK = 0.75
const MIN_SIDE = 320

export interface Size {
  width: number
  height: number
}

/** The size that fits within `maxSide` on its longer side, aspect kept, never enlarged. */
export function fitWithin(size: Size, maxSide: number): Size {
  const longer = Math.max(size.width, size.height)
  if (longer <= maxSide) return { width: size.width, height: size.height }
  const scale = maxSide / longer
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  }
}

/** Draws the picture at `size` and encodes it as a JPEG data URL of `quality`. */
export type Encode = (size: Size, quality: number) => string

/**
 * The first encoding that fits `maxChars`: lower JPEG qualities first, then a smaller picture.
 * Undefined when even the smallest allowed picture does not fit (it cannot be a receipt photo).
 */
export function encodeWithin(
  natural: Size,
  encode: Encode,
  maxChars = RECEIPT_MAX_CHARS,
  maxSide = RECEIPT_MAX_SIDE,
): string | undefined {
  let side = Math.min(maxSide, Math.max(natural.width, natural.height))
  for (;;) {
    const size = fitWithin(natural, side)
    for (const quality of QUALITIES) {
      const url = encode(size, quality)
      if (url.length <= maxChars) return url
    }
    if (side <= MIN_SIDE) return undefined
    side = Math.max(MIN_SIDE, Math.round(side * SHRINK))
  }
}

/** The receipt could not be read as a picture (not an image, or a format the phone cannot draw). */
export class ReceiptUnreadable extends Error {
  constructor(cause?: unknown) {
    super('the receipt picture cannot be read', { cause })
    this.name = 'ReceiptUnreadable'
  }
}

/** Decodes a picture the user chose, upright as the camera took it (EXIF orientation applied). */
async function decode(file: Blob): Promise<{ image: CanvasImageSource; size: Size; done(): void }> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' })
    return {
      image: bitmap,
      size: { width: bitmap.width, height: bitmap.height },
      done: () => bitmap.close(),
    }
  }
  const url = URL.createObjectURL(file)
  const image = new Image()
  image.src = url
  try {
    await image.decode()
  } catch (error) {
    URL.revokeObjectURL(url)
    throw error
  }
  return {
    image,
    size: { width: image.naturalWidth, height: image.naturalHeight },
    done: () => URL.revokeObjectURL(url),
  }
}

/** The chosen picture as a JPEG data URL of at most RECEIPT_MAX_CHARS characters. */
export async function receiptDataUrl(file: Blob): Promise<string> {
  let picture: Awaited<ReturnType<typeof decode>>
  try {
    picture = await decode(file)
  } catch (error) {
    throw new ReceiptUnreadable(error)
  }
  try {
    if (picture.size.width === 0 || picture.size.height === 0) throw new ReceiptUnreadable()
    const canvas = document.createElement('canvas')
    const context = canvas.getContext('2d')
    if (!context) throw new ReceiptUnreadable()
    const encode: Encode = (size, quality) => {
      canvas.width = size.width
      canvas.height = size.height
      // JPEG has no transparency: a PNG screenshot's clear parts become white, not black.
      context.fillStyle = '#fff'
      context.fillRect(0, 0, size.width, size.height)
      context.drawImage(picture.image, 0, 0, size.width, size.height)
      return canvas.toDataURL('image/jpeg', quality)
    }
    const url = encodeWithin(picture.size, encode)
    if (url === undefined || !url.startsWith('data:image/jpeg;base64,')) {
      throw new ReceiptUnreadable()
    }
    return url
  } finally {
    picture.done()
  }
}
