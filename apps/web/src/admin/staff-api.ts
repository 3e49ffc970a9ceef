import {
  ChatMessageSchema,
  ChatReadSchema,
  StaffConversationPageSchema,
  type ChatMessage,
  type ChatRead,
  type ChatSend,
  type StaffConversationPage,
} from '@numisma/contracts/chat'
import { StaffSessionSchema, type StaffSession } from '@numisma/contracts/staff'
import { z } from 'zod'

/**
 * The operator API (`/svc/main/admin`, DESIGN §9): a staff session cookie scoped to that path,
 * not the shop's HMAC signing, so plain same-origin fetches.
 */
export const STAFF_BASE = '/svc/main/admin'

/** A refused staff call: the server's code and message (`{code, message}`, contracts/errors). */
export class StaffApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'StaffApiError'
  }
}

/** What to tell staff of a failed call: the server's coded message, else `fallback` or the error. */
export function staffErrorMessage(error: unknown, fallback?: string): string {
  return error instanceof StaffApiError ? error.message : (fallback ?? String(error))
}

const ErrorBodySchema = z.object({ code: z.string(), message: z.string() })

export async function staffRequest<T>(
  path: string,
  schema: { parse(value: unknown): T },
  init: {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
    body?: unknown
    /** Extra headers, e.g. an `Idempotency-Key` for money calls. */
    headers?: Record<string, string>
    query?: Record<string, number | string | undefined>
  } = {},
): Promise<T> {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(init.query ?? {}))
    if (value !== undefined) search.set(key, String(value))
  const query = search.size > 0 ? `?${search.toString()}` : ''
  const res = await fetch(`${STAFF_BASE}${path}${query}`, {
    method: init.method ?? 'GET',
    credentials: 'same-origin',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const json: unknown = await res.json().catch(() => null)
  if (!res.ok) {
    const error = ErrorBodySchema.safeParse(json)
    throw error.success
      ? new StaffApiError(error.data.code, res.status, error.data.message)
      : new StaffApiError('REQUEST_FAILED', res.status, `HTTP ${res.status}`)
  }
  return schema.parse(z.object({ data: z.unknown() }).parse(json).data)
}

export function staffLogin(username: string, password: string): Promise<unknown> {
  return staffRequest('/login', z.unknown(), { method: 'POST', body: { username, password } })
}

export function staffSession(): Promise<StaffSession> {
  return staffRequest('/session', StaffSessionSchema)
}

export function staffLogout(): Promise<unknown> {
  return staffRequest('/logout', z.unknown(), { method: 'POST' })
}

/** A page of the list; `before` is the previous page's `nextBefore` (omitted: the newest). */
export function getConversations(before: string | undefined): Promise<StaffConversationPage> {
  return staffRequest('/chat/conversations', StaffConversationPageSchema, { query: { before } })
}

export function getConversationMessages(
  id: number,
  before: number | undefined,
  limit: number,
): Promise<ChatMessage[]> {
  return staffRequest(`/chat/conversations/${id}/messages`, z.array(ChatMessageSchema), {
    query: { before, limit },
  })
}

export function replyInConversation(id: number, message: ChatSend): Promise<ChatMessage> {
  return staffRequest(`/chat/conversations/${id}/messages`, ChatMessageSchema, {
    method: 'POST',
    body: message,
  })
}

export function markConversationRead(id: number): Promise<ChatRead> {
  return staffRequest(`/chat/conversations/${id}/read`, ChatReadSchema, { method: 'POST' })
}
