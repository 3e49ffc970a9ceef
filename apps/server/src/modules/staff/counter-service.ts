import { AppError } from '../../platform/errors'

/** The parts of other modules' services the counter uses; app.ts passes the services. */
export interface CounterDeps {
  users: { exists(userId: number): Promise<boolean> }
  ledger: {
    creditDeposit(
      userId: number,
      amount: number,
      memo: string,
      idempotency?: { owner: number; key: string },
    ): Promise<{ deposit: number }>
    creditBalance(
      userId: number,
      amount: number,
      memo: string,
      idempotency?: { owner: number; key: string },
    ): Promise<{ balance: number }>
  }
}

/**
 * What an operator records at the shop's counter (DESIGN §9): a deposit or a balance top-up paid
 * in cash, each credited from the clearing account.
 */
export class CounterService {
  constructor(private readonly deps: CounterDeps) {}

  async creditDeposit(
    staffId: number,
    userId: number,
    amount: number,
    memo: string,
    idempotencyKey?: string,
  ): Promise<{ deposit: number }> {
    if (!(await this.deps.users.exists(userId))) throw new AppError('NOT_FOUND', { userId })
    return this.deps.ledger.creditDeposit(
      userId,
      amount,
      memo,
      // Staff keys live apart from users' (negative owner ids), so a key never replays across them.
      idempotencyKey === undefined ? undefined : { owner: -staffId, key: idempotencyKey },
    )
  }

  async creditBalance(
    staffId: number,
    userId: number,
    amount: number,
    memo: string,
    idempotencyKey?: string,
  ): Promise<{ balance: number }> {
    if (!(await this.deps.users.exists(userId))) throw new AppError('NOT_FOUND', { userId })
    return this.deps.ledger.creditBalance(
      userId,
      amount,
      memo,
      idempotencyKey === undefined ? undefined : { owner: -staffId, key: idempotencyKey },
    )
  }
}
