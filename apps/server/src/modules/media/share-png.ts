import sharp from 'sharp'

/**
 * PNG renditions of our SVG artwork for share cards: the messaging platform's and the native
 * app's share cards draw no SVG (a blank thumbnail). 300×300, the size the platforms show, the
 * picture fitted on white (share cards have no transparency).
 */
export const SHARE_PNG_SIZE = 300
/** Renditions kept in memory: the demo catalogue's pictures, with room; the oldest goes first. */
const CACHE_ENTRIES = 500

/** Renderings at once: each costs 20–30 ms of CPU, the rest wait their turn. */
export const SHARE_PNG_RENDERS_AT_ONCE = 2

export interface SharePngCache {
  /** Whether `key` is kept (or being rendered): a miss costs CPU, so the route rate-limits misses. */
  has(key: string): boolean
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
  let rendering = 0
  const waiting: (() => void)[] = []
  async function limited(svg: string): Promise<Buffer> {
    if (rendering >= SHARE_PNG_RENDERS_AT_ONCE) await new Promise<void>((r) => waiting.push(r))
    rendering++
    try {
      return await render(svg)
    } finally {
      rendering--
      waiting.shift()?.()
    }
  }
  return {
    has: (key) => entries.has(key),
    get(key, svg) {
      const hit = entries.get(key)
      if (hit) {
        // Most recently used goes last, so eviction takes the least recently used.
        entries.delete(key)
        entries.set(key, hit)
        return hit
      }
      const png = limited(svg())
      entries.set(key, png)
      // A failed rendering is not kept: the next ask tries again.
      png.catch(() => entries.delete(key))
      if (entries.size > CACHE_ENTRIES) {
        const oldest = entries.keys().next().value
        if (oldest !== undefined) entries.delete(oldest)
      }
      return png
    },
  }
}
