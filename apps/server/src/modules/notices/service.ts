import {
  type Notice,
  NoticeKindSchema,
  NoticeParamsSchema,
  type NoticesPage,
  type NoticesQuery,
  type NoticesUnread,
} from '@numisma/contracts/notices'
import type { Clock } from '../../platform/clock'
import type { Transact } from '../../platform/transactions'
import type { NoticeRow, NoticesRepository } from './repository'

export interface NoticesDeps {
  transact: Transact
  clock: Clock
  /** The repository's public methods, so a spec can pass an in-memory fake. */
  notices: Pick<NoticesRepository, keyof NoticesRepository>
}

export function toNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    kind: NoticeKindSchema.parse(row.kind),
    params: NoticeParamsSchema.parse(JSON.parse(row.params)),
    link: row.link,
    createdAt: new Date(row.createdAt).toISOString(),
    read: row.readAt !== null,
  }
}

/** A user's notices (DESIGN §4, issue 9): reading them a page at a time and marking them read. */
export class NoticesService {
  constructor(private readonly deps: NoticesDeps) {}

  /** The caller's notices, newest first. */
  async list(userId: number, query: NoticesQuery): Promise<NoticesPage> {
    const { rows, total } = await this.deps.notices.page(
      userId,
      (query.page - 1) * query.pageSize,
      query.pageSize,
    )
    return { data: rows.map(toNotice), page: query.page, pageSize: query.pageSize, total }
  }

  /**
   * Marks the caller's notices of `ids` (without ids: all of theirs) read, and returns how many
   * stay unread. Ids of other users' notices, or of none, are passed over without a word: the
   * answer is the same as for a notice already read, so it tells nothing about them.
   */
  async markRead(userId: number, ids: readonly number[] | undefined): Promise<NoticesUnread> {
    const { notices, clock } = this.deps
    return this.deps.transact(async (tx) => {
      await notices.markRead(tx, userId, ids ?? null, clock.now())
      return { unread: await notices.unreadCount(tx, userId) }
    })
  }

  /** The user centre's counter. */
  unreadCount(userId: number): Promise<number> {
    return this.deps.notices.unreadCount(null, userId)
  }
}
