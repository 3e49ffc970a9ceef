import { UserStatisticsResponseSchema } from '@numisma/contracts/user'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AppError } from '../../platform/errors'
import { requireUser } from '../../platform/request-signing'
import type { BiddingReads } from '../bidding/reads-repository'
import type { LedgerService } from '../ledger/service'
import type { PassportRepository } from '../passport/repository'

export const userRoutes: FastifyPluginAsyncZod<{
  users: PassportRepository
  ledger: LedgerService
  bidding: BiddingReads
}> = async (app, { users, ledger, bidding }) => {
  app.get(
    '/user/@statistics',
    {
      schema: {
        tags: ['account'],
        summary: "The signed-in user's basic data",
        response: { 200: UserStatisticsResponseSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      const user = await users.findUser(userId)
      if (!user) throw new AppError('SESSION_INVALID')
      const { balance, quota } = await ledger.balances(user.id)
      return {
        data: {
          userId: String(user.id),
          display: user.display,
          mobile: user.mobile,
          avatar: user.avatar,
          createdAt: new Date(user.created_at).toISOString(),
          balance,
          quota,
          // Shipping and coupon counters arrive with the order and mall modules.
          counts: await bidding.counts(user.id),
        },
      }
    },
  )
}
