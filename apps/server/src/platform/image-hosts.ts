import { isImageUrl } from '@numisma/contracts/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from './errors'

/** The body fields that hold a picture staff set (contracts' ImageUrlSchema): one URL or a list. */
const PICTURE_FIELDS = new Set(['image', 'images', 'cover'])

/**
 * How deep the walk looks: no contract nests a picture deeper, and a body nested thousands deep
 * (valid JSON, well under the size limit) overflowed the stack here — a 500 on the staff routes
 * without a body schema, which let it through. Deeper parts are not any route's shape.
 */
const MAX_DEPTH = 16

/**
 * The first https picture in `body` on none of `hosts`, with its field path. Contracts check a
 * picture's shape (ImageUrlSchema: our media or https, never `javascript:` or `data:`); the host
 * list is this server's configuration (IMAGE_URL_HOSTS), so it is checked here, for every staff
 * route at once. Other values are the contract's business — an upload's data URL among them.
 */
export function refusedPicture(
  body: unknown,
  hosts: readonly string[],
  path = 'body',
  depth = 0,
): { field: string; url: string } | undefined {
  if (typeof body !== 'object' || body === null || depth > MAX_DEPTH) return undefined
  for (const [key, value] of Object.entries(body)) {
    const field = `${path}.${key}`
    if (PICTURE_FIELDS.has(key)) {
      const urls = Array.isArray(value) ? value : [value]
      for (const [i, url] of urls.entries()) {
        if (typeof url === 'string' && /^\s*https:/i.test(url) && !isImageUrl(url.trim(), hosts))
          return { field: Array.isArray(value) ? `${field}.${i}` : field, url }
      }
    } else if (typeof value === 'object') {
      const inner = refusedPicture(value, hosts, field, depth + 1)
      if (inner) return inner
    }
  }
  return undefined
}

/** Refuses (400 VALIDATION_FAILED) a staff call whose body sets a picture from elsewhere. */
export function guardPictureHosts(
  app: FastifyInstance,
  staffPrefix: string,
  hosts: readonly string[],
): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (!request.url.startsWith(`${staffPrefix}/`)) return
    const refused = refusedPicture(request.body, hosts)
    if (refused) {
      throw new AppError('VALIDATION_FAILED', {
        fields: [{ field: refused.field, message: 'not our own media nor an allowed https host' }],
      })
    }
  })
}
