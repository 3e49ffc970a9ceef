import type { ChatCard, ChatMessage, ChatSend } from '@numisma/contracts/chat'
import { CHINA_OFFSET_MS } from '@numisma/contracts/dates'

/**
 * The pure part of a chat thread, shared by the collector's /chat and the staff desk: history pages
 * (newest first, as the server answers) and live messages become one ascending list, messages not
 * yet stored show beside it until the stored copy (same clientId) arrives, and a time line goes
 * where the conversation paused.
 */

/** A message the server has not answered for yet (sending) or refused (failed, may be retried). */
export interface PendingMessage {
  clientId: string
  send: ChatSend
  state: 'sending' | 'failed'
  /** A picture being sent, shown from the phone's copy until the stored one arrives. */
  preview?: string
  /** An item's card being sent, shown whole (the send carries only its ref). */
  card?: ChatCard
  createdAt: string
}

/** Five minutes of quiet put a time line between two messages (as messaging apps do). */
export const TIME_GAP_MS = 5 * 60 * 1000

/** Stored messages once each, oldest first. */
export function threadMessages(pages: readonly (readonly ChatMessage[])[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>()
  for (const page of pages) for (const message of page) byId.set(message.id, message)
  return [...byId.values()].sort((a, b) => a.id - b.id)
}

/** Pending messages whose stored copy has not arrived yet. */
export function stillPending(
  pending: readonly PendingMessage[],
  stored: readonly ChatMessage[],
): PendingMessage[] {
  const storedIds = new Set(stored.flatMap((m) => (m.clientId ? [m.clientId] : [])))
  return pending.filter((p) => !storedIds.has(p.clientId))
}

/** Adds a live message to history pages (newest first), once: the first page gains it. */
export function withLiveMessage(
  pages: readonly (readonly ChatMessage[])[],
  message: ChatMessage,
): ChatMessage[][] {
  if (pages.some((page) => page.some((m) => m.id === message.id))) return pages.map((p) => [...p])
  const [first = [], ...rest] = pages
  return [[message, ...first], ...rest.map((p) => [...p])]
}

export type ThreadItem =
  | { type: 'time'; key: string; at: string }
  | { type: 'message'; key: string; message: ChatMessage }
  | { type: 'pending'; key: string; pending: PendingMessage }

/** The thread as shown: stored, then pending, with a time line before each pause. */
export function threadItems(
  stored: readonly ChatMessage[],
  pending: readonly PendingMessage[],
  gapMs = TIME_GAP_MS,
): ThreadItem[] {
  const items: ThreadItem[] = []
  let last: number | null = null
  const addTime = (at: string) => {
    const time = Date.parse(at)
    if (last === null || time - last >= gapMs) items.push({ type: 'time', key: `t-${at}`, at })
    last = time
  }
  for (const message of stored) {
    addTime(message.createdAt)
    items.push({ type: 'message', key: `m-${message.id}`, message })
  }
  for (const p of pending) {
    addTime(p.createdAt)
    items.push({ type: 'pending', key: `p-${p.clientId}`, pending: p })
  }
  return items
}

/**
 * How a time line reads in China time: the time alone today, 昨天/Yesterday and the time, the date
 * and time before that (`now` for tests).
 */
export function timeLineParts(
  at: string,
  now: number = Date.now(),
): { day: 'today' | 'yesterday' | 'date'; date: string; time: string } {
  const china = new Date(Date.parse(at) + CHINA_OFFSET_MS)
  const today = new Date(now + CHINA_OFFSET_MS)
  const dayOf = (d: Date) => Math.floor(d.getTime() / 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(china.getUTCHours())}:${pad(china.getUTCMinutes())}`
  const date = `${china.getUTCFullYear()}-${pad(china.getUTCMonth() + 1)}-${pad(china.getUTCDate())}`
  const diff = dayOf(today) - dayOf(china)
  return { day: diff === 0 ? 'today' : diff === 1 ? 'yesterday' : 'date', date, time }
}

/** A sender's id for a message (the contract's clientId: 8–64 of [\w-]). */
export function newClientId(): string {
  return `c-${crypto.randomUUID()}`
}

/** The id to page back from: the oldest message of the last page, or none when it was short. */
export function olderPageParam(
  lastPage: readonly ChatMessage[],
  limit: number,
): number | undefined {
  if (lastPage.length < limit) return undefined
  return Math.min(...lastPage.map((m) => m.id))
}
