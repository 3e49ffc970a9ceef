import { dataSchema } from '@numisma/contracts/api'
import { PhotoSchema, PhotoUploadSchema } from '@numisma/contracts/staff-media'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AppError } from '../../platform/errors'
import { staffIdOf } from '../staff/access'
import type { PhotoService } from './photos-service'

/** A picture of up to ~15 MB as a base64 data URL (the contract's bound) and the JSON around it. */
export const PHOTO_BODY_LIMIT = 21_000_000 + 64 * 1024

/**
 * Public: <img> tags cannot sign, and a photo's random key is its whole address. A key's bytes
 * never change, so every cache may keep them for good.
 */
export const photoRoutes: FastifyPluginAsyncZod<{ photos: PhotoService }> = async (
  app,
  { photos },
) => {
  app.get(
    '/photos/:key/:file',
    {
      schema: {
        tags: ['media'],
        summary: 'A catalogue photo at one of its sizes (full 1600, detail 800, thumb 400 px)',
        params: z.object({
          key: z.string().regex(/^[a-f0-9]{32}$/),
          file: z.enum(['full.jpg', 'detail.jpg', 'thumb.jpg']),
        }),
      },
    },
    async (request, reply) => {
      const size = request.params.file.slice(0, -4) as 'full' | 'detail' | 'thumb'
      const jpeg = await photos.jpeg(request.params.key, size)
      if (!jpeg) throw new AppError('NOT_FOUND')
      return reply
        .type('image/jpeg')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(jpeg)
    },
  )
}

/** Staff upload (behind the staff guard): cataloguers photograph lots, mall items and banners. */
export const photoStaffRoutes: FastifyPluginAsyncZod<{ photos: PhotoService }> = async (
  app,
  { photos },
) => {
  app.post(
    '/photos',
    {
      bodyLimit: PHOTO_BODY_LIMIT,
      config: { staffRoles: ['cataloguer'] },
      schema: {
        tags: ['staff'],
        summary:
          'Upload a catalogue photo (data URL): re-encoded upright without metadata into full, detail and thumb JPEGs (PHOTO_INVALID for a non-picture)',
        body: PhotoUploadSchema,
        response: { 200: dataSchema(PhotoSchema) },
      },
    },
    async (request) => ({ data: await photos.upload(staffIdOf(request), request.body.dataUrl) }),
  )
}
