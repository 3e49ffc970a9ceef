import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../platform/errors'
import { type Artwork, renderArtwork } from './artwork'
import { createSharePngCache } from './share-png'

/** Unsigned: images are loaded by <img> tags, which cannot sign. The URL carries the parameters. */
export const MEDIA_PREFIX = '/svc/media'

const text = z.string().max(24)
const ArtworkSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('coin'),
    seed: z.number().int().nonnegative(),
    face: text,
    legend: text,
    metal: z.enum(['silver', 'gold', 'copper', 'brass', 'nickel']),
    holed: z.boolean(),
    side: z.enum(['obverse', 'reverse']),
  }),
  z.object({
    kind: z.literal('note'),
    seed: z.number().int().nonnegative(),
    face: text,
    legend: text,
    serial: text,
    hue: z.number().int().min(0).max(360),
    side: z.enum(['obverse', 'reverse']),
  }),
  z.object({
    kind: z.literal('supply'),
    seed: z.number().int().nonnegative(),
    tool: z.enum(['slab', 'album', 'loupe']),
    label: text,
    hue: z.number().int().min(0).max(360),
    side: z.enum(['obverse', 'reverse']),
  }),
])

export function artworkUrl(art: Artwork): string {
  return `${MEDIA_PREFIX}/art/${Buffer.from(JSON.stringify(art)).toString('base64url')}.svg`
}

export function parseArtwork(token: string): Artwork | null {
  try {
    const parsed = ArtworkSchema.safeParse(JSON.parse(Buffer.from(token, 'base64url').toString()))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** A year and never revalidated: the URL is the picture's whole content. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** PNG renderings one address may cause a minute; cached pictures are not counted. */
export const SHARE_PNG_MISSES_PER_MINUTE = 60

export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const sharePngs = createSharePngCache()
  // Anyone can make up a new token (another seed or text), each a rendering: limit misses per caller.
  const missLimit = app.createRateLimit({
    max: SHARE_PNG_MISSES_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request) => `share-png:${request.ip}`,
  })
  app.get(
    '/art/:token',
    {
      schema: {
        tags: ['media'],
        summary:
          'A generated picture of a coin, a banknote or a collecting supply: SVG, or with .png ' +
          'a 300×300 PNG for share cards (the messaging platform and the native share sheet draw no SVG)',
        params: z.object({
          token: z
            .string()
            .max(2048)
            .regex(/^[A-Za-z0-9_-]+\.(svg|png)$/),
        }),
      },
    },
    async (request, reply) => {
      const { token } = request.params
      const art = parseArtwork(token.slice(0, -4))
      if (!art) throw new AppError('NOT_FOUND')
      if (token.endsWith('.png')) {
        // Keyed on the parsed picture, so one picture spelled two ways is one entry.
        const key = artworkUrl(art)
        if (!sharePngs.has(key)) {
          const limit = await missLimit(request)
          if (!limit.isAllowed && limit.isExceeded) {
            throw new AppError('RATE_LIMITED', { retryAfterSeconds: limit.ttlInSeconds })
          }
        }
        const png = await sharePngs.get(key, () => renderArtwork(art))
        return reply.header('cache-control', IMMUTABLE).type('image/png').send(png)
      }
      return reply
        .header('cache-control', IMMUTABLE)
        .type('image/svg+xml; charset=utf-8')
        .send(renderArtwork(art))
    },
  )
}
