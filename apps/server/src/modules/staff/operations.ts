import { dataSchema } from '@numisma/contracts/api'
import { HEADER } from '@numisma/contracts/signing'
import { isOnGrid, nearestOnGrid } from '@numisma/domain/increments'
import { staggeredEnd } from '@numisma/domain/soft-close'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Clock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { CatalogRepository } from '../catalog/repository'
import type { LedgerService } from '../ledger/service'
import type { PassportRepository } from '../passport/repository'

const Fen = z.number().int().positive().max(100_000_000_000)
const Iso = z.iso.datetime({ offset: true })

const SpecialBody = z
  .object({
    title: z.string().trim().min(1).max(100),
    subtitle: z.string().max(200).default(''),
    description: z.string().max(5000).default(''),
    cover: z.string().max(2048).default(''),
    startsAt: Iso,
    endsAt: Iso,
    staggerSeconds: z.number().int().min(0).max(3600).default(30),
    softCloseWindowSeconds: z.number().int().min(0).max(3600).default(300),
    softCloseExtendSeconds: z.number().int().min(0).max(3600).default(300),
  })
  .refine((b) => Date.parse(b.startsAt) < Date.parse(b.endsAt), {
    message: 'startsAt must be before endsAt',
    path: ['endsAt'],
  })

const LotBody = z.object({
  specialId: z.number().int().positive(),
  title: z.string().trim().min(1).max(200),
  subtitle: z.string().max(200).default(''),
  description: z.string().max(5000).default(''),
  startPrice: Fen,
  reservePrice: Fen.optional(),
  categoryId: z.number().int().positive().optional(),
  gradeCode: z.number().int().min(0).max(99).default(0),
  gradingService: z.enum(['PCGS', 'NGC', 'PMG', 'GBCA']).optional(),
  certNo: z.string().max(40).optional(),
  images: z.array(z.string().max(2048)).max(20).default([]),
  exportBanned: z.boolean().default(false),
})

const MallItemBody = z.object({
  title: z.string().trim().min(1).max(200),
  price: Fen,
  stock: z.number().int().min(0).max(1_000_000),
  categoryId: z.number().int().positive().optional(),
  limitPerUser: z.number().int().positive().optional(),
})

export interface OperationsOptions {
  catalog: CatalogRepository
  users: PassportRepository
  ledger: LedgerService
  clock: Clock
}

/** Operator calls of DESIGN §9: set up auctions and the mall, record deposits. */
export const operationsRoutes: FastifyPluginAsyncZod<OperationsOptions> = async (app, opts) => {
  const { catalog, users, ledger, clock } = opts
  const tags = ['staff']

  app.post(
    '/specials',
    {
      schema: {
        tags,
        summary: 'Create a special',
        body: SpecialBody,
        response: { 200: dataSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const b = request.body
      const id = await catalog.insertSpecial({
        title: b.title,
        subtitle: b.subtitle,
        description: b.description,
        cover: b.cover,
        starts_at: Date.parse(b.startsAt),
        ends_at: Date.parse(b.endsAt),
        stagger_seconds: b.staggerSeconds,
        soft_close_window_seconds: b.softCloseWindowSeconds,
        soft_close_extend_seconds: b.softCloseExtendSeconds,
        created_at: clock.now(),
      })
      return { data: { id } }
    },
  )

  app.post(
    '/lots',
    {
      schema: {
        tags,
        summary: 'Add a lot to a special; it closes staggerSeconds after the previous one',
        body: LotBody,
        response: { 200: dataSchema(z.object({ id: z.number().int(), endsAt: z.string() })) },
      },
    },
    async (request) => {
      const b = request.body
      for (const [field, amount] of [
        ['startPrice', b.startPrice],
        ['reservePrice', b.reservePrice],
      ] as const) {
        if (amount !== undefined && !isOnGrid(amount)) {
          throw new AppError('BID_OFF_GRID', { field, ...nearestOnGrid(amount) })
        }
      }
      const special = await catalog.findSpecial(b.specialId)
      if (!special) throw new AppError('NOT_FOUND', { specialId: b.specialId })
      const lotNo = (await catalog.lotsOfSpecial(b.specialId)).length + 1
      const endsAt = staggeredEnd(special.ends_at, lotNo, special.stagger_seconds)
      const now = clock.now()
      await catalog.insertLots([
        {
          special_id: b.specialId,
          lot_no: lotNo,
          category_id: b.categoryId ?? null,
          title: b.title,
          subtitle: b.subtitle,
          description: b.description,
          images: JSON.stringify(b.images),
          grade_code: b.gradeCode,
          grading_service: b.gradingService ?? null,
          cert_no: b.certNo ?? null,
          year: '',
          denomination: '',
          material: '',
          start_price: b.startPrice,
          reserve_price: b.reservePrice ?? null,
          starts_at: special.starts_at,
          ends_at: endsAt,
          export_banned: b.exportBanned ? 1 : 0,
          status: 'open',
          price: null,
          bid_count: 0,
          leader_id: null,
          created_at: now,
        },
      ])
      const lot = (await catalog.lotsOfSpecial(b.specialId)).find((l) => l.lot_no === lotNo)!
      return { data: { id: lot.id, endsAt: new Date(endsAt).toISOString() } }
    },
  )

  app.post(
    '/mall-items',
    {
      schema: {
        tags,
        summary: 'Add a mall item',
        body: MallItemBody,
        response: { 200: dataSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const b = request.body
      const productNo = `M${clock.now().toString(36).toUpperCase()}${Math.floor(
        Math.random() * 1296,
      )
        .toString(36)
        .toUpperCase()}`
      await catalog.insertMallItems([
        {
          product_no: productNo,
          category_id: b.categoryId ?? null,
          title: b.title,
          subtitle: '',
          description: '',
          images: '[]',
          grade_code: 0,
          grading_service: null,
          cert_no: null,
          year: '',
          denomination: '',
          material: '',
          price: b.price,
          stock: b.stock,
          sold: 0,
          limit_per_user: b.limitPerUser ?? null,
          on_sale: 1,
          export_banned: 0,
          created_at: clock.now(),
        },
      ])
      const item = await catalog.findMallItem(productNo)
      return { data: { id: item!.id } }
    },
  )

  app.post(
    '/users/:userId/quota',
    {
      schema: {
        tags,
        summary: "Credit a user's deposit (paid at the counter)",
        params: z.object({ userId: z.coerce.number().int().positive() }),
        headers: z
          .object({
            [HEADER.idempotencyKey]: z
              .string()
              .min(8)
              .max(128)
              .regex(/^[\w-]+$/)
              .optional(),
          })
          .loose(),
        body: z.object({ amount: Fen, memo: z.string().max(200).default('counter deposit') }),
        response: { 200: dataSchema(z.object({ quota: z.number().int() })) },
      },
    },
    async (request) => {
      if (!(await users.findUser(request.params.userId))) throw new AppError('NOT_FOUND')
      const key = request.headers[HEADER.idempotencyKey]
      const staffId = request.staff?.staffId ?? 0
      return {
        data: await ledger.creditDeposit(
          request.params.userId,
          request.body.amount,
          request.body.memo,
          // Staff keys live apart from users' (negative owner ids).
          typeof key === 'string' ? { owner: -staffId, key } : undefined,
        ),
      }
    },
  )
}
