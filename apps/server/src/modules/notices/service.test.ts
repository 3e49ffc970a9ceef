import { describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../platform/clock'
import type { Transact, Tx } from '../../platform/transactions'
import type { NoticeRow, NoticesRepository } from './repository'
import { NoticesService } from './service'
import { DatabaseNoticeWriter, NOTICES_KEPT_PER_USER, NOTICES_TRIM_EVERY } from './writer'

/** NoticesService and the writer with an in-memory repository (the Immich pattern). */
const NOW = Date.UTC(2026, 10, 26, 9, 0, 0)
const TX = { tx: true } as unknown as Tx

interface Stored extends NoticeRow {
  userId: number
}

function fakeRepository(rows: Stored[] = []) {
  const repo: Pick<NoticesRepository, keyof NoticesRepository> = {
    insert: vi.fn((_tx, row) => {
      rows.push({
        id: rows.length + 1,
        userId: row.userId,
        kind: row.kind,
        params: row.params,
        link: row.link,
        createdAt: row.now,
        readAt: null,
      })
      return Promise.resolve(rows.length)
    }),
    keepNewest: vi.fn(() => Promise.resolve()),
    page: vi.fn((userId: number, offset: number, limit: number) => {
      const mine = rows.filter((r) => r.userId === userId).sort((a, b) => b.id - a.id)
      return Promise.resolve({ rows: mine.slice(offset, offset + limit), total: mine.length })
    }),
    markRead: vi.fn((_tx, userId: number, ids: readonly number[] | null, now: number) => {
      for (const r of rows) {
        if (r.userId === userId && r.readAt === null && (ids === null || ids.includes(r.id)))
          r.readAt = now
      }
      return Promise.resolve()
    }),
    unreadCount: vi.fn((_tx, userId: number) =>
      Promise.resolve(rows.filter((r) => r.userId === userId && r.readAt === null).length),
    ),
  }
  return repo
}

function setup(rows: Stored[] = []) {
  const notices = fakeRepository(rows)
  const clock = new FakeClock(NOW)
  const transact = vi.fn((work: (tx: Tx) => Promise<unknown>) => work(TX))
  const service = new NoticesService({
    transact: transact as unknown as Transact,
    clock,
    notices,
  })
  return { service, notices, clock, transact, writer: new DatabaseNoticeWriter(notices, clock) }
}

describe('the notice writer', () => {
  it("records the facts as JSON in the caller's transaction", async () => {
    const { writer, notices } = setup()
    await writer.add(TX, 4, 'outbid', { lotId: 12, title: '光绪元宝', price: 2_000 }, '/x')
    expect(notices.insert).toHaveBeenCalledWith(TX, {
      userId: 4,
      kind: 'outbid',
      params: '{"lotId":12,"title":"光绪元宝","price":2000}',
      link: '/x',
      now: NOW,
    })
  })

  it("trims the user's notices to the newest kept with one notice in every so many", async () => {
    const { writer, notices } = setup()
    for (let i = 1; i < NOTICES_TRIM_EVERY; i++) {
      await writer.add(TX, 4, 'outbid', { lotId: 12, title: '光绪元宝', price: i }, null)
    }
    expect(notices.keepNewest).not.toHaveBeenCalled()
    await writer.add(TX, 5, 'outbid', { lotId: 12, title: '光绪元宝', price: 1 }, null)
    expect(notices.keepNewest).toHaveBeenCalledExactlyOnceWith(TX, 5, NOTICES_KEPT_PER_USER)
  })
})

describe('NoticesService', () => {
  it('lists a page newest first, with its facts and whether it was read', async () => {
    const { service, writer, clock } = setup()
    for (let price = 1; price <= 5; price++) {
      clock.advance(1_000)
      await writer.add(TX, 4, 'outbid', { lotId: 12, title: '光绪元宝', price }, null)
    }
    const page = await service.list(4, { page: 2, pageSize: 2 })
    expect(page).toEqual({
      page: 2,
      pageSize: 2,
      total: 5,
      data: [
        {
          id: 3,
          kind: 'outbid',
          params: { lotId: 12, title: '光绪元宝', price: 3 },
          link: null,
          createdAt: new Date(NOW + 3_000).toISOString(),
          read: false,
        },
        expect.objectContaining({ id: 2 }),
      ],
    })
    expect((await service.list(5, { page: 1, pageSize: 20 })).total).toBe(0)
  })

  it('marks the named notices of the caller read in one transaction and counts the rest', async () => {
    const { service, writer, notices, transact } = setup()
    await writer.add(TX, 4, 'outbid', { lotId: 1, title: 'a', price: 1 }, null)
    await writer.add(TX, 4, 'outbid', { lotId: 1, title: 'a', price: 2 }, null)
    await writer.add(TX, 9, 'outbid', { lotId: 1, title: 'a', price: 3 }, null)
    expect(await service.markRead(4, [1, 3])).toEqual({ unread: 1 })
    expect(transact).toHaveBeenCalledTimes(1)
    expect(notices.markRead).toHaveBeenCalledWith(TX, 4, [1, 3], NOW)
    expect(await service.unreadCount(9)).toBe(1)
    expect(await service.markRead(4, undefined)).toEqual({ unread: 0 })
    expect(notices.markRead).toHaveBeenLastCalledWith(TX, 4, null, NOW)
  })

  it('refuses a stored kind it does not know rather than answer with it', async () => {
    const { service } = setup([
      { id: 1, userId: 4, kind: 'gossip', params: '{}', link: null, createdAt: NOW, readAt: null },
    ])
    await expect(service.list(4, { page: 1, pageSize: 20 })).rejects.toThrow()
  })
})
