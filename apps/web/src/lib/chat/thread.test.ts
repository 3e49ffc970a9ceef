import type { ChatMessage } from '@numisma/contracts/chat'
import { describe, expect, it } from 'vitest'
import {
  olderPageParam,
  stillPending,
  threadItems,
  threadMessages,
  timeLineParts,
  withLiveMessage,
  type PendingMessage,
} from './thread'

function message(id: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    conversationId: 1,
    from: 'user',
    kind: 'text',
    text: `m${id}`,
    createdAt: new Date(Date.UTC(2026, 10, 26, 4, id)).toISOString(),
    ...overrides,
  }
}

function pending(clientId: string, createdAt: string): PendingMessage {
  return { clientId, send: { kind: 'text', clientId, text: 'hi' }, state: 'sending', createdAt }
}

describe('chat thread', () => {
  it('merges newest-first pages into one ascending list, each message once', () => {
    const pages = [
      [message(5), message(4), message(3)],
      [message(3), message(2)],
    ]
    expect(threadMessages(pages).map((m) => m.id)).toEqual([2, 3, 4, 5])
  })

  it('adds a live message to the first page once', () => {
    const pages = [[message(2), message(1)]]
    const once = withLiveMessage(pages, message(3))
    expect(once[0]?.map((m) => m.id)).toEqual([3, 2, 1])
    expect(withLiveMessage(once, message(3))[0]?.map((m) => m.id)).toEqual([3, 2, 1])
    expect(withLiveMessage([], message(1))).toEqual([[message(1)]])
  })

  it('drops a pending message once its stored copy carries its clientId', () => {
    const at = new Date().toISOString()
    const waiting = [pending('c-aaaaaaaa', at), pending('c-bbbbbbbb', at)]
    const left = stillPending(waiting, [message(1, { clientId: 'c-aaaaaaaa' })])
    expect(left.map((p) => p.clientId)).toEqual(['c-bbbbbbbb'])
  })

  it('puts a time line first and after five minutes of quiet', () => {
    const stored = [
      message(1, { createdAt: '2026-11-26T04:00:00.000Z' }),
      message(2, { createdAt: '2026-11-26T04:04:59.000Z' }),
      message(3, { createdAt: '2026-11-26T04:10:00.000Z' }),
    ]
    const items = threadItems(stored, [pending('c-cccccccc', '2026-11-26T04:11:00.000Z')])
    expect(items.map((i) => i.type)).toEqual([
      'time',
      'message',
      'message',
      'time',
      'message',
      'pending',
    ])
  })

  it('reads time lines in China time: today, yesterday, a date', () => {
    const now = Date.parse('2026-11-26T04:00:00.000Z') // 12:00 in China
    expect(timeLineParts('2026-11-26T01:05:00.000Z', now)).toMatchObject({
      day: 'today',
      time: '09:05',
    })
    // 23:30 on the 25th in China is 15:30 UTC.
    expect(timeLineParts('2026-11-25T15:30:00.000Z', now)).toMatchObject({
      day: 'yesterday',
      time: '23:30',
    })
    // 16:30 UTC on the 25th is already the 26th in China.
    expect(timeLineParts('2026-11-25T16:30:00.000Z', now).day).toBe('today')
    expect(timeLineParts('2026-11-20T02:00:00.000Z', now)).toEqual({
      day: 'date',
      date: '2026-11-20',
      time: '10:00',
    })
  })

  it('pages back from the oldest message of a full page only', () => {
    expect(olderPageParam([message(9), message(8)], 2)).toBe(8)
    expect(olderPageParam([message(9)], 2)).toBeUndefined()
  })
})
