import sharp from 'sharp'

/**
 * PNG renditions of our SVG artwork for share cards: the messaging platform's and the native
 * app's share cards draw no SVG (a blank thumbnail). 300×300, the size the platforms show, the
 * picture fitted on white (share cards have no transparency).
 */
export const SHARE_PNG_SIZE = 300
/** Renditions kept in memory: the demo catalogue's pictures, with room; the oldest goes first. */
const CACHE_ENTRIES = 500

export interface SharePngCache {
  /** The PNG for `key`, rendered from `svg()` once; concurrent asks share one rendering. */
  get(key: string, svg: () => string): Promise<Buffer>
}

export function renderSharePng(svg: string): Promise<Buffer> {
  // The SVG is ours (renderArtwork from a checked token, under 2 KB of parameters): sharp's pixel
  // limit still bounds what a rendering may cost.
  return sharp(Buffer.from(svg), { limitInputPixels: 4096 * 4096 })
    .resize(SHARE_PNG_SIZE, SHARE_PNG_SIZE, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer()
}

export function createSharePngCache(
  render: (svg: string) => Promise<Buffer> = renderSharePng,
): SharePngCache {
  const entries = new Map<string, Promise<Buffer>>()
  return {
    get(key, svg) {
      const hit = entries.get(key)
      if (hit) {
        // Most recently used goes last, so eviction takes the least recently used.
        entries.delete(key)
        entries.set(key, hit)
        return hit
      }
      const rendering = render(svg())
      entries.set(key, rendering)
      // A failed rendering is not kept: the next ask tries again.
      rendering.catch(() => entries.delete(key))
      if (entries.size > CACHE_ENTRIES) {
        const oldest = entries.keys().next().value
        if (oldest !== undefined) entries.delete(oldest)
      }
      return rendering
    },
  }
}
