import { PhotoSchema, type Photo, photoKeyOf, photoUrl } from '@numisma/contracts/staff-media'
import { staffRequest } from '../staff-api'

/** The largest picture the console sends (the server's bound: a 15 MB picture as a data URL). */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024

export function uploadPhoto(dataUrl: string): Promise<Photo> {
  return staffRequest('/photos', PhotoSchema, { method: 'POST', body: { dataUrl } })
}

/** The small size of one of our photo URLs, for lists; any other URL as it is. */
export function photoThumb(url: string): string {
  const key = photoKeyOf(url)
  return key === null ? url : photoUrl(key, 'thumb')
}

/** Moves the photo at `index` one place to the front (to the first place: the cover). */
export function moveForward(urls: readonly string[], index: number): string[] {
  if (index <= 0 || index >= urls.length) return [...urls]
  const next = [...urls]
  ;[next[index - 1], next[index]] = [next[index]!, next[index - 1]!]
  return next
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () =>
      typeof reader.result === 'string'
        ? resolve(reader.result)
        : reject(new Error('not a data URL'))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(file)
  })
}
