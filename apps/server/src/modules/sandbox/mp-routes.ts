import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  MP_PATHS,
  type MpScope,
  PreverifyRequestSchema,
  PreverifyResultSchema,
} from '../wechat/mp-protocol'
import { authorizeProblemPage, avatarSvg, consentPage, type ConsentFields } from './mp-pages'
import { type MpResult, type MpSandbox, SANDBOX_IDENTITY_MAX } from './mp-sandbox'

declare module 'fastify' {
  interface FastifyInstance {
    /** The platform sandbox, when this server mounts it: tests count what it issued. */
    mpSandbox?: MpSandbox
  }
}

export interface MpSandboxRouteOptions {
  sandbox: MpSandbox
}

/** The consent form is small. */
const BODY_LIMIT = 16 * 1024

/**
 * Who the tester is and which apps they consented to, kept by the sandbox's pages as the platform
 * keeps it in its app: once allowed, a later `snsapi_userinfo` authorize goes straight back.
 */
const USER_COOKIE = 'wx_sandbox_user'
const USER_COOKIE_MAX_AGE = 30 * 24 * 60 * 60

const SandboxUserSchema = z.object({
  name: z.string().min(1).max(SANDBOX_IDENTITY_MAX),
  apps: z.array(z.string().max(64)).max(16),
})
type SandboxUser = z.infer<typeof SandboxUserSchema>

function readUser(request: FastifyRequest): SandboxUser | null {
  const raw = request.cookies[USER_COOKIE]
  if (!raw) return null
  try {
    const parsed = SandboxUserSchema.safeParse(
      JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')),
    )
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * Whether a consent was posted by the sandbox's own page: its Origin (or, when a browser sends
 * none, its Referer) names this host. Another site's form must not sign a visitor in as a name of
 * its choosing and leave that identity in the visitor's cookie for 30 days.
 */
function postedHere(request: FastifyRequest): boolean {
  const from = request.headers.origin ?? request.headers.referer
  if (typeof from !== 'string') return false
  try {
    return new URL(from).host === new URL(`${request.protocol}://${request.host}`).host
  } catch {
    return false
  }
}

/**
 * The platform's own parameters are checked by the sandbox, which answers in the platform's codes;
 * these only bound their size (a wrong or missing one is the platform's error, not our 400).
 */
const param = z.string().max(2048).optional()
const AuthorizeQuery = z.object({
  appid: param,
  redirect_uri: param,
  response_type: param,
  scope: param,
  state: z.string().max(128).optional(),
})
const ConsentBody = AuthorizeQuery.extend({
  name: z.string().max(256).optional(),
  decision: z.enum(['allow', 'deny']),
})
const ApiQuery = z.object({
  appid: param,
  secret: param,
  code: param,
  grant_type: param,
  access_token: param,
  openid: param,
  lang: param,
  type: param,
})
const MpReplySchema = z.record(z.string(), z.unknown())

/** `redirect_uri` with the platform's `code` and `state` added to its query (its hash kept). */
function backTo(redirectUri: string, params: { code?: string; state: string | undefined }): string {
  const url = new URL(redirectUri)
  if (params.code !== undefined) url.searchParams.set('code', params.code)
  url.searchParams.set('state', params.state ?? '')
  return url.toString()
}

/**
 * The messaging platform's official-account protocol, stood in for locally (mounted at
 * `/svc/sandbox/wx` when `wechatMp.sandbox`; ADR 013's pattern): the authorize page in the
 * user's browser, the `sns/…` and `cgi-bin/…` JSON API our server calls, the avatar the user info
 * points to, and `POST /jssdk/preverify`, the check the messaging app itself makes of a page's
 * `wx.config` (the simulated app in the end-to-end tests asks it). Not signed with our request
 * HMAC, since the real platform is not; API errors are HTTP 200 with `{errcode, errmsg}`, as there.
 */
export const mpSandboxRoutes: FastifyPluginAsyncZod<MpSandboxRouteOptions> = async (app, opts) => {
  const { sandbox } = opts
  const tags = ['sandbox']
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )

  const html = (reply: FastifyReply): FastifyReply =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')

  const json = <T>(reply: FastifyReply, result: MpResult<T>) =>
    reply.send(result.ok ? result.value : result.error)

  const remember = (request: FastifyRequest, reply: FastifyReply, user: SandboxUser): void => {
    reply.setCookie(USER_COOKIE, Buffer.from(JSON.stringify(user), 'utf8').toString('base64url'), {
      path: app.prefix || '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: USER_COOKIE_MAX_AGE,
    })
  }

  app.get(
    MP_PATHS.authorize,
    {
      schema: {
        tags,
        summary:
          'Sandbox of the platform’s authorize page: consent (snsapi_userinfo) or a silent redirect with code and state',
        querystring: AuthorizeQuery,
      },
    },
    async (request, reply) => {
      const query = request.query
      const problem = sandbox.authorizeProblem(query, request.hostname)
      if (problem !== null) return html(reply).status(400).send(authorizeProblemPage(problem))
      const scope = query.scope as MpScope
      const user = readUser(request)
      // The platform skips its page for a known user: always for snsapi_base, and for
      // snsapi_userinfo once the user allowed this account.
      if (user && (scope === 'snsapi_base' || user.apps.includes(sandbox.appId))) {
        const code = sandbox.issueCode(user.name, scope)
        return reply.redirect(backTo(query.redirect_uri!, { code, state: query.state }), 302)
      }
      const fields: ConsentFields = {
        appid: query.appid!,
        redirect_uri: query.redirect_uri!,
        scope,
        state: query.state,
      }
      return html(reply).send(consentPage(sandbox.appName, fields, user?.name ?? ''))
    },
  )

  app.post(
    `${MP_PATHS.authorize}/confirm`,
    {
      schema: {
        tags,
        summary:
          'Sandbox: the tester allows (a code goes back, the consent is remembered) or denies (state only)',
        body: ConsentBody,
      },
      bodyLimit: BODY_LIMIT,
    },
    async (request, reply) => {
      if (!postedHere(request)) {
        return html(reply).status(403).send(authorizeProblemPage('origin'))
      }
      const body = request.body
      const problem = sandbox.authorizeProblem(body, request.hostname)
      if (problem !== null) return html(reply).status(400).send(authorizeProblemPage(problem))
      const scope = body.scope as MpScope
      if (body.decision === 'deny') {
        return reply.redirect(backTo(body.redirect_uri!, { state: body.state }), 302)
      }
      const name = (body.name ?? '').trim()
      if (name === '' || name.length > SANDBOX_IDENTITY_MAX) {
        const fields = {
          appid: body.appid!,
          redirect_uri: body.redirect_uri!,
          scope,
          state: body.state,
        }
        return html(reply)
          .status(400)
          .send(consentPage(sandbox.appName, fields, ''))
      }
      const known = readUser(request)
      const apps = known?.name === name ? known.apps.filter((app) => app !== sandbox.appId) : []
      remember(request, reply, {
        name,
        // Only a userinfo consent is one to remember; a base visit only says who the user is.
        apps: scope === 'snsapi_userinfo' ? [...apps, sandbox.appId].slice(-16) : apps,
      })
      const code = sandbox.issueCode(name, scope)
      return reply.redirect(backTo(body.redirect_uri!, { code, state: body.state }), 302)
    },
  )

  app.get(
    MP_PATHS.webAccessToken,
    {
      schema: {
        tags,
        summary: 'Sandbox: a code (once, within 5 minutes) for a web access token and the open id',
        querystring: ApiQuery,
        response: { 200: MpReplySchema },
      },
    },
    async (request, reply) => json(reply, sandbox.webAccessToken(request.query)),
  )

  app.get(
    MP_PATHS.userInfo,
    {
      schema: {
        tags,
        summary: 'Sandbox: the user’s profile for a web access token of scope snsapi_userinfo',
        querystring: ApiQuery,
        response: { 200: MpReplySchema },
      },
    },
    async (request, reply) =>
      json(
        reply,
        sandbox.userInfo(
          request.query,
          (openid) => `${request.protocol}://${request.host}${app.prefix}/avatar/${openid}`,
        ),
      ),
  )

  app.get(
    MP_PATHS.accessToken,
    {
      schema: {
        tags,
        summary:
          'Sandbox: the basic access token (7200 s; the previous stays valid 5 more minutes)',
        querystring: ApiQuery,
        response: { 200: MpReplySchema },
      },
    },
    async (request, reply) => json(reply, sandbox.accessToken(request.query)),
  )

  app.get(
    MP_PATHS.ticket,
    {
      schema: {
        tags,
        summary:
          'Sandbox: the JS-SDK jsapi ticket (7200 s; the previous stays valid 5 more minutes)',
        querystring: ApiQuery,
        response: { 200: MpReplySchema },
      },
    },
    async (request, reply) => json(reply, sandbox.ticket(request.query)),
  )

  app.post(
    '/jssdk/preverify',
    {
      schema: {
        tags,
        summary:
          'Sandbox only: the messaging app’s check of a wx.config (config:ok, or why not), for the simulated app',
        body: PreverifyRequestSchema,
        response: { 200: PreverifyResultSchema },
      },
    },
    async (request) => sandbox.preverify(request.body, request.hostname),
  )

  app.get(
    '/avatar/:openid',
    {
      schema: {
        tags,
        summary: 'Sandbox: the avatar user info points to, drawn from the open id',
        params: z.object({ openid: z.string().regex(/^o[\w-]{27}$/) }),
      },
    },
    async (request, reply) =>
      reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .send(avatarSvg(request.params.openid)),
  )
}
