import { UserStatisticsResponseSchema } from '@numisma/contracts/user'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AppError } from '../../platform/errors'
import { requireUser } from '../../platform/request-signing'
import type { LedgerService } from '../ledger/service'
import type { PassportRepository } from '../passport/repository'

export const userRoutes: FastifyPluginAsyncZod<{
  users: PassportRepository
  ledger: LedgerService
}> = async (app, { users, ledger }) => {
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
          counts: {},
        },
      }
    },
  )
}
