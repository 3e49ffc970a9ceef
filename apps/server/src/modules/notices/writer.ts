import type { NoticeKind, NoticeParamsOf } from '@numisma/contracts/notices'
import type { Clock } from '../../platform/clock'
import type { Database } from '../../platform/db'
import type { Tx } from '../../platform/transactions'
import { NoticesRepository } from './repository'

/**
 * Records a notice inside the caller's write transaction, so a notice exists exactly when the
 * event it tells of committed: a bid that rolls back leaves no "outbid", a claimed reminder or a
 * created order always has its notice. Modules that tell users of events take this in their deps.
 */
export interface NoticeWriter {
  add<K extends NoticeKind>(
    tx: Tx,
    userId: number,
    kind: K,
    params: NoticeParamsOf<K>,
    link: string | null,
  ): Promise<void>
}

/**
 * The newest this many notices of a user are kept; older ones are deleted as new ones arrive.
 * A notice points at something kept elsewhere (a lot, an order, a withdrawal), so an old one lost
 * is a pointer lost, not the fact; a busy bidder outbid a hundred times a day would otherwise grow
 * the table without end. Bounding it costs one indexed DELETE per notice (NoticesRepository
 * .keepNewest), which the bid benchmark in the report measured.
 */
export const NOTICES_KEPT_PER_USER = 200

export class DatabaseNoticeWriter implements NoticeWriter {
  constructor(
    private readonly notices: Pick<NoticesRepository, 'insert' | 'keepNewest'>,
    private readonly clock: Clock,
  ) {}

  async add<K extends NoticeKind>(
    tx: Tx,
    userId: number,
    kind: K,
    params: NoticeParamsOf<K>,
    link: string | null,
  ): Promise<void> {
    await this.notices.insert(tx, {
      userId,
      kind,
      params: JSON.stringify(params),
      link,
      now: this.clock.now(),
    })
    await this.notices.keepNewest(tx, userId, NOTICES_KEPT_PER_USER)
  }
}

/** The writer over one database, for the composition root and the jobs' `forDatabase`. */
export function noticeWriterFor(database: Database, clock: Clock): NoticeWriter {
  return new DatabaseNoticeWriter(new NoticesRepository(database.db), clock)
}

/** Where a notice about a lot leads: its page. */
export const lotLink = (lotId: number): string => `/productDetail?id=${lotId}`
/** Where a notice about unpaid orders leads: paying them. */
export const payLink = (orderId: number): string => `/account/pay?orderIds=${orderId}`
