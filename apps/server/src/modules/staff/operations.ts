import { dataSchema } from '@numisma/contracts/api'
import { HEADER } from '@numisma/contracts/signing'
import {
  DepositCreditedSchema,
  DepositCreditSchema,
  LotCreatedSchema,
  LotCreateSchema,
  MallItemCreatedSchema,
  MallItemCreateSchema,
  SpecialCreatedSchema,
  SpecialCreateSchema,
} from '@numisma/contracts/staff'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ListingService } from '../catalog/listing-service'
import type { CounterService } from './counter-service'

export interface OperationsOptions {
  listings: ListingService
  counter: CounterService
}

const IdempotencyHeaders = z
  .object({
    [HEADER.idempotencyKey]: z
      .string()
      .min(8)
      .max(128)
      .regex(/^[\w-]+$/)
      .optional(),
  })
  .loose()

/** Operator calls of DESIGN §9: set up auctions and the mall, record deposits. */
export const operationsRoutes: FastifyPluginAsyncZod<OperationsOptions> = async (
  app,
  { listings, counter },
) => {
  const tags = ['staff']

  app.post(
    '/specials',
    {
      schema: {
        tags,
        summary: 'Create a special',
        body: SpecialCreateSchema,
        response: { 200: dataSchema(SpecialCreatedSchema) },
      },
    },
    async (request) => ({ data: await listings.createSpecial(request.body) }),
  )

  app.post(
    '/lots',
    {
      schema: {
        tags,
        summary: "Add a lot as the special's next; it closes staggerSeconds after the previous one",
        body: LotCreateSchema,
        response: { 200: dataSchema(LotCreatedSchema) },
      },
    },
    async (request) => ({ data: await listings.addLot(request.body) }),
  )

  app.post(
    '/mall-items',
    {
      schema: {
        tags,
        summary: 'Add a mall item; its product number comes from its id',
        body: MallItemCreateSchema,
        response: { 200: dataSchema(MallItemCreatedSchema) },
      },
    },
    async (request) => ({ data: await listings.addMallItem(request.body) }),
  )

  // `…/quota` is the path from before DESIGN §4 separated the deposit from the quota; it stays as
  // an alias for older clients.
  for (const [path, summary] of [
    ['/users/:userId/deposit', "Credit a user's deposit (保证金) paid at the counter"],
    ['/users/:userId/quota', 'Alias of /users/{userId}/deposit (older path)'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary,
          params: z.object({ userId: z.coerce.number().int().positive() }),
          headers: IdempotencyHeaders,
          body: DepositCreditSchema,
          response: { 200: dataSchema(DepositCreditedSchema) },
        },
      },
      async (request) => {
        const key = request.headers[HEADER.idempotencyKey]
        return {
          data: await counter.creditDeposit(
            request.staff?.staffId ?? 0,
            request.params.userId,
            request.body.amount,
            request.body.memo,
            typeof key === 'string' ? key : undefined,
          ),
        }
      },
    )
  }
}
