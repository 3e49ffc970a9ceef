import { CHAT_IMAGE_DATA_URL_MAX } from '@numisma/contracts/chat'

/** A phone photo is several megabytes; 1600 px on the long side is plenty to read a coin's detail. */
export const CHAT_IMAGE_MAX_SIDE = 1600

/** The size a picture is drawn at: its own when small enough, else scaled to `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number) {
  const scale = Math.min(1, maxSide / Math.max(width, height))
  return { width: Math.round(width * scale), height: Math.round(height * scale) }
}

/**
 * A picked picture as a JPEG data URL the server takes (contracts/chat CHAT_IMAGE_DATA_URL_MAX),
 * downscaled on the phone so a large photo is not sent whole; smaller and softer until it fits.
 */
export async function pictureDataUrl(file: Blob): Promise<string> {
  const bitmap = await createImageBitmap(file)
  try {
    for (const [side, quality] of [
      [CHAT_IMAGE_MAX_SIDE, 0.85],
      [1200, 0.75],
      [800, 0.7],
    ] as const) {
      const size = fitWithin(bitmap.width, bitmap.height, side)
      const canvas = document.createElement('canvas')
      canvas.width = size.width
      canvas.height = size.height
      const context = canvas.getContext('2d')
      if (!context) throw new Error('no 2d canvas')
      context.drawImage(bitmap, 0, 0, size.width, size.height)
      const url = canvas.toDataURL('image/jpeg', quality)
      if (url.length <= CHAT_IMAGE_DATA_URL_MAX) return url
    }
    throw new Error('picture too large')
  } finally {
    bitmap.close()
  }
}

/**
 * Where a stored picture is fetched from: the server names it by a path within its service
 * (`/chat/images/<key>`). The collector's page puts it under the push base, whose route an <img>
 * can load with the `sid` cookie (ADR 018, amended: the main service's needs signed headers); the
 * desk under the staff API base. A push base given as a socket URL names the same host over http.
 * A full URL or a picture not yet sent (a data or blob URL) is used as it is.
 */
export function chatImageSrc(url: string, serviceBase: string): string {
  const base = serviceBase.replace(/\/+$/, '').replace(/^ws(s?):\/\//, 'http$1://')
  if (/^(?:https?:|data:|blob:)/.test(url) || url.startsWith(`${base}/`)) return url
  return `${base}${url.startsWith('/') ? url : `/${url}`}`
}
