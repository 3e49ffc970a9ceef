import { dataSchema } from '@numisma/contracts/api'
import {
  CHAT_IMAGE_KEY,
  ChatConversationSchema,
  ChatHistoryQuerySchema,
  ChatImageParamsSchema,
  ChatMessageSchema,
  ChatReadSchema,
  ChatSendSchema,
  StaffConversationPageSchema,
  StaffConversationParamsSchema,
  StaffConversationsQuerySchema,
} from '@numisma/contracts/chat'
import { COOKIE } from '@numisma/contracts/cookies'
import type { StaffSession } from '@numisma/contracts/staff'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { staffIdOf } from '../staff/access'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { sendError } from '../../platform/error-handler'
import { AppError } from '../../platform/errors'
import type { EventBus } from '../../platform/event-bus'
import { requireUser } from '../../platform/request-signing'
import { ConnectionCounter } from '../push/limits'
import { type OriginRules, originAllowed } from '../push/origin'
import { type ChatConnection, type ChatHub, staffStanding } from './hub'
import type { ChatService } from './service'

/** A picture is at most a 4 MiB data URL (the contract's bound); the rest of a send is small. */
const CHAT_BODY_LIMIT = 4 * 1024 * 1024 + 64 * 1024

const tags = ['chat']

/**
 * A stored picture never changes under its random key, so the browser may keep it a day, but only
 * its own cache: whether it answers depends on who asks (Vary: Cookie for the cookie routes). The
 * type is ours, not sniffed, and another site's page may not embed it.
 */
const sendJpeg = (reply: FastifyReply, jpeg: Buffer) =>
  reply
    .type('image/jpeg')
    .header('cache-control', 'private, max-age=86400')
    .header('vary', 'Cookie')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'same-site')
    .send(jpeg)

/** The collector's calls (main service, signed): only ever their own conversation. */
export const chatRoutes: FastifyPluginAsyncZod<{ service: ChatService }> = async (
  app,
  { service },
) => {
  app.get(
    '/chat/conversation',
    {
      schema: {
        tags,
        summary:
          "The caller's conversation with the house's agent (id null before the first message)",
        response: { 200: dataSchema(ChatConversationSchema) },
      },
    },
    async (request) => ({ data: await service.conversation(requireUser(request).userId) }),
  )

  app.get(
    '/chat/messages',
    {
      schema: {
        tags,
        summary: 'History, newest first, before a message id',
        querystring: ChatHistoryQuerySchema,
        response: { 200: dataSchema(z.array(ChatMessageSchema)) },
      },
    },
    async (request) => ({
      data: await service.history(
        { side: 'user', userId: requireUser(request).userId },
        request.query,
      ),
    }),
  )

  app.post(
    '/chat/messages',
    {
      bodyLimit: CHAT_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Send text, a picture (data URL, stored as JPEG; CHAT_IMAGE_INVALID; CHAT_IMAGE_QUOTA past the day’s pictures) or an item card (CHAT_ITEM_NOT_FOUND); a resend of a clientId answers the stored message; RATE_LIMITED past 30 a minute',
        body: ChatSendSchema,
        response: { 200: dataSchema(ChatMessageSchema) },
      },
    },
    async (request) => {
      const actor = { side: 'user' as const, userId: requireUser(request).userId }
      return { data: (await service.send(actor, request.body)).message }
    },
  )

  app.post(
    '/chat/read',
    {
      schema: {
        tags,
        summary: "Marks the agent's messages read",
        response: { 200: dataSchema(ChatReadSchema) },
      },
    },
    async (request) => ({
      data: await service.markRead({ side: 'user', userId: requireUser(request).userId }),
    }),
  )

  app.get(
    '/chat/images/:key',
    {
      schema: {
        tags,
        summary: "A picture of the caller's conversation as a JPEG (anyone else's answers 404)",
        params: ChatImageParamsSchema,
      },
    },
    async (request, reply) =>
      sendJpeg(
        reply,
        await service.image(request.params.key, { userId: requireUser(request).userId }),
      ),
  )
}

export interface ChatStaffRouteOptions {
  service: ChatService
  hub: ChatHub
  origins: OriginRules
  /** The staff service's session lookup by the `staff_sid` cookie (UNAUTHENTICATED when none). */
  sessionOf: (sid: string | undefined) => Promise<StaffSession>
}

/**
 * Staff's side, under /svc/main/admin inside the staff guard (modules/staff/access.ts, the support
 * role): the conversations, their history, answering as the agent, read marks, pictures and the
 * live socket.
 */
export const chatStaffRoutes: FastifyPluginAsyncZod<ChatStaffRouteOptions> = async (
  app,
  { service, hub, origins, sessionOf },
) => {
  const staffTags = ['staff']
  const config = { staffRoles: ['support'] as const }
  app.addHook('onClose', () => hub.stopSweeps())
  const agent = (request: FastifyRequest, conversationId: number) => ({
    side: 'agent' as const,
    staffId: staffIdOf(request),
    conversationId,
  })

  app.get(
    '/chat/conversations',
    {
      config,
      schema: {
        tags: staffTags,
        summary:
          'Conversations, newest activity first, a page at a time (`before`: the last page’s nextBefore), with unread counts and the unread totals over all',
        querystring: StaffConversationsQuerySchema,
        response: { 200: dataSchema(StaffConversationPageSchema) },
      },
    },
    async (request) => ({ data: await service.staffConversations(request.query) }),
  )

  app.get(
    '/chat/conversations/:id/messages',
    {
      config,
      schema: {
        tags: staffTags,
        summary: "A conversation's history, newest first, before a message id",
        params: StaffConversationParamsSchema,
        querystring: ChatHistoryQuerySchema,
        response: { 200: dataSchema(z.array(ChatMessageSchema)) },
      },
    },
    async (request) => ({
      data: await service.history(agent(request, request.params.id), request.query),
    }),
  )

  app.post(
    '/chat/conversations/:id/messages',
    {
      config,
      bodyLimit: CHAT_BODY_LIMIT,
      schema: {
        tags: staffTags,
        summary: 'Answer as the agent (text, picture or card)',
        params: StaffConversationParamsSchema,
        body: ChatSendSchema,
        response: { 200: dataSchema(ChatMessageSchema) },
      },
    },
    async (request) => ({
      data: (await service.send(agent(request, request.params.id), request.body)).message,
    }),
  )

  app.post(
    '/chat/conversations/:id/read',
    {
      config,
      schema: {
        tags: staffTags,
        summary: "Marks the collector's messages read",
        params: StaffConversationParamsSchema,
        response: { 200: dataSchema(ChatReadSchema) },
      },
    },
    async (request) => ({ data: await service.markRead(agent(request, request.params.id)) }),
  )

  app.get(
    '/chat/images/:key',
    {
      config,
      schema: {
        tags: staffTags,
        summary: 'A chat picture as a JPEG',
        params: ChatImageParamsSchema,
      },
    },
    async (request, reply) => sendJpeg(reply, await service.image(request.params.key, 'staff')),
  )

  app.get(
    '/chat/ws',
    {
      config,
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        // A plain GET (no upgrade) would get the socket plugin's bare 404: refuse it coded.
        if (!request.ws) return sendError(request, reply, 404, 'NOT_FOUND')
        if (!originAllowed(request.headers.origin, request.host, origins)) {
          return sendError(request, reply, 403, 'FORBIDDEN')
        }
      },
    },
    // The guard admitted the upgrade; the hub asks the session again before every frame and
    // periodically, so a member disabled, stripped of support or signed out is cut off (1008).
    (socket, request) => {
      const staffId = staffIdOf(request)
      const standing = staffStanding(
        sessionOf,
        request.cookies[COOKIE.staffSid],
        staffId,
        config.staffRoles,
      )
      const client = hub.attachStaff(adapt(socket), staffId, standing)
      socket.on('close', () => hub.detach(client))
      socket.on('message', (data: Buffer) => {
        hub
          .receive(client, data.toString())
          .catch((error: unknown) => request.log.error({ err: error }, 'chat: frame failed'))
      })
    },
  )
}

export interface ChatSocketOptions {
  hub: ChatHub
  bus: EventBus
  origins: OriginRules
  maxConnectionsPerIp: number
}

// `injectWS` hands the route a request without a socket, hence no address.
const addressOf = (request: FastifyRequest): string => request.ip || 'unknown'

/**
 * The collector's chat socket (`/svc/push/chat`), beside the push role's: the `sid` cookie names
 * them (an anonymous socket is closed with 1008 `UNAUTHENTICATED`); a foreign page and an
 * address over its cap are refused before the upgrade, as on `/svc/push/ws`. Registered once per
 * instance, it also feeds every chat socket here — the staff's too — from the bus.
 */
export const chatSocketRoutes: FastifyPluginAsync<ChatSocketOptions> = async (app, opts) => {
  const { hub } = opts
  const unsubscribe = opts.bus.subscribe((event) => hub.deliver(event))
  app.addHook('onClose', () => unsubscribe())
  const connections = new ConnectionCounter(opts.maxConnectionsPerIp)

  app.get(
    '/chat',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        // A plain GET (no upgrade) would get the socket plugin's bare 404: refuse it coded.
        if (!request.ws) return sendError(request, reply, 404, 'NOT_FOUND')
        if (!originAllowed(request.headers.origin, request.host, opts.origins)) {
          return sendError(request, reply, 403, 'FORBIDDEN')
        }
        if (!connections.hasRoom(addressOf(request))) {
          return sendError(request, reply, 429, 'RATE_LIMITED')
        }
      },
    },
    (socket, request) => {
      const address = addressOf(request)
      if (!connections.tryAcquire(address)) {
        socket.close(1008, 'too many connections')
        return
      }
      const client = hub.attachUser(adapt(socket), request.cookies[COOKIE.sid])
      socket.on('close', () => {
        hub.detach(client)
        connections.release(address)
      })
      socket.on('message', (data: Buffer) => {
        hub
          .receive(client, data.toString())
          .catch((error: unknown) => request.log.error({ err: error }, 'chat: frame failed'))
      })
    },
  )

  // The collector's pictures as the page's <img> and zoom load them (ADR 018, amended): an <img>
  // cannot sign, so this sits beside the socket and trusts the same `sid` cookie (HttpOnly,
  // SameSite=Lax: another site's page does not send it). Only that conversation's collector gets
  // the JPEG; anyone else, a malformed key included, gets 404.
  app.get<{ Params: { key: string } }>(
    '/chat/images/:key',
    {
      schema: {
        tags,
        summary:
          "A picture of the collector's conversation as a JPEG, by the sid cookie as an <img> sends it (anyone else: 404)",
      },
    },
    async (request, reply) => {
      if (!CHAT_IMAGE_KEY.test(request.params.key)) throw new AppError('NOT_FOUND')
      return sendJpeg(reply, await hub.pictureFor(request.params.key, request.cookies[COOKIE.sid]))
    },
  )
}

/** The `ws` socket as the hub sees it. */
function adapt(socket: {
  readyState: number
  OPEN: number
  bufferedAmount: number
  send(data: string): void
  close(code: number, reason: string): void
}): ChatConnection {
  return {
    send: (frame) => {
      if (socket.readyState === socket.OPEN) socket.send(frame)
    },
    get bufferedAmount() {
      return socket.bufferedAmount
    },
    close: (code, reason) => socket.close(code, reason),
  }
}
