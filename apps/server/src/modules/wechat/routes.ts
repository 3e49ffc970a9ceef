import { dataSchema } from '@numisma/contracts/api'
import { LoginResultSchema } from '@numisma/contracts/passport'
import {
  ShareSignatureQuerySchema,
  ShareSignatureSchema,
  WxBindRequestSchema,
  WxOpenIdParamsSchema,
  WxOpenIdResultSchema,
  type WxOpenIdResult,
} from '@numisma/contracts/wechat'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { loginBody, noStore, perMobile, setLoginCookies } from '../passport/login-reply'
import type { WechatService } from './service'

/** Where an OAuth code travels in our path; logs show `[code]` instead of it (server-options.ts). */
const OAUTH_CODE_IN_PATH = /(\/h5\/auth\/getWxOpenId\/)[^/?#]*/
/** The platform API's own secrets in a query (the sandbox's requests are logged by this server). */
const SECRET_IN_QUERY = /([?&](?:code|secret|access_token)=)[^&#]*/g

export function redactOAuthCode(url: string): string {
  return url.replace(OAUTH_CODE_IN_PATH, '$1[code]').replace(SECRET_IN_QUERY, '$1[redacted]')
}

export interface WechatRouteOptions {
  service: WechatService
  /** `POST /passport/wx-bind` per caller and number in 15 minutes, as `/passport/login`. */
  bindLimit: number
}

/** The messaging platform's sign-in and share signature (main service, signed; ADR 017). */
export const wechatRoutes: FastifyPluginAsyncZod<WechatRouteOptions> = async (app, opts) => {
  const { service } = opts

  app.get(
    '/h5/auth/getWxOpenId/:code',
    {
      schema: {
        tags: ['wechat'],
        summary:
          'Exchange a messaging-platform OAuth code (once): sign a linked open id in, or hand a first-time one a bind token',
        params: WxOpenIdParamsSchema,
        response: { 200: dataSchema(WxOpenIdResultSchema) },
      },
    },
    async (request, reply) => {
      noStore(reply)
      const outcome = await service.openIdFor(request.params.code, request.caller?.deviceId ?? '')
      if (!outcome.linked) return { data: outcome }
      setLoginCookies(request, reply, outcome.login)
      const data: WxOpenIdResult = {
        linked: true,
        openid: outcome.openid,
        login: loginBody(outcome.login),
      }
      return { data }
    },
  )

  app.post(
    '/passport/wx-bind',
    {
      config: {
        rateLimit: {
          max: opts.bindLimit,
          timeWindow: '15 minutes',
          keyGenerator: perMobile,
          hook: 'preHandler',
        },
      },
      schema: {
        tags: ['wechat', 'passport'],
        summary:
          'Finish a first-time messaging-app sign-in: mobile and SMS code, linking the open id to the account',
        body: WxBindRequestSchema,
        response: { 200: dataSchema(LoginResultSchema) },
      },
    },
    async (request, reply) => {
      const login = await service.bind(request.body, request.caller?.deviceId ?? '')
      setLoginCookies(request, reply, login)
      return { data: loginBody(login) }
    },
  )

  app.get(
    '/h5/wechat/jsapi-signature',
    {
      schema: {
        tags: ['wechat'],
        summary: 'The JS-SDK wx.config signature for a page URL (without its hash)',
        querystring: ShareSignatureQuerySchema,
        response: { 200: dataSchema(ShareSignatureSchema) },
      },
    },
    async (request) => ({ data: await service.shareSignature(request.query.url) }),
  )
}
