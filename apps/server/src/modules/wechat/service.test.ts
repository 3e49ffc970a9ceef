import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../platform/clock'
import { AppError } from '../../platform/errors'
import type { Transact, Tx } from '../../platform/transactions'
import type { LoginOutcome } from '../passport/service'
import { StaleAccessTokenError } from './mp-client'
import type { BindTokenRow } from './repository'
import { ACCESS_TOKEN, type SignInPort, WechatService, type WechatServiceDeps } from './service'

/**
 * WechatService with fakes (the Immich pattern): what is written in the binding's one transaction
 * and what is not, the code claim given back only when the platform could not be asked, and the
 * ticket's retry with a fresh access token.
 */
const APP = 'wx-app'

function setup(options: { mp?: boolean } = {}) {
  const log: string[] = []
  const clock = new FakeClock()
  const claims = new Set<string>()
  const links: { openid: string; userId: number }[] = []
  const tokens = new Map<string, BindTokenRow>()
  const users = new Map<string, number>()
  let ticketReplies: (Error | string)[] = ['ticket']

  // A transaction that undoes the fakes' writes when its work throws, as the database would.
  const transact = (async (work: (tx: Tx) => Promise<unknown>) => {
    const saved = {
      links: [...links],
      tokens: new Map([...tokens].map(([k, v]) => [k, { ...v }])),
      users: new Map(users),
    }
    log.push('tx:begin')
    try {
      return await work({} as Tx)
    } catch (error) {
      links.splice(0, links.length, ...saved.links)
      tokens.clear()
      for (const [k, v] of saved.tokens) tokens.set(k, v)
      users.clear()
      for (const [k, v] of saved.users) users.set(k, v)
      throw error
    } finally {
      log.push('tx:end')
    }
  }) as Transact

  const repo: WechatServiceDeps['repo'] = {
    claimCode: (_app, hash) => Promise.resolve(!claims.has(hash) && !!claims.add(hash)),
    releaseCode: (_app, hash) => {
      claims.delete(hash)
      log.push('code:release')
      return Promise.resolve()
    },
    linkOfOpenid: (_app, openid) => Promise.resolve(links.find((l) => l.openid === openid)),
    linkOfUser: (_app, userId) => Promise.resolve(links.find((l) => l.userId === userId)),
    insertLink: (_tx, link) => {
      if (links.some((l) => l.openid === link.openid || l.userId === link.userId)) {
        return Promise.resolve(false)
      }
      links.push({ openid: link.openid, userId: link.userId })
      log.push('link:insert')
      return Promise.resolve(true)
    },
    insertBindToken: (token) => {
      tokens.set(token.token_hash, { ...token, used_at: null })
      return Promise.resolve()
    },
    bindToken: (hash) => Promise.resolve(tokens.get(hash) && { ...tokens.get(hash)! }),
    useBindToken: (_tx, hash, now) => {
      const row = tokens.get(hash)
      if (!row || row.used_at !== null || row.expires_at <= now) return Promise.resolve(false)
      row.used_at = now
      return Promise.resolve(true)
    },
  }

  const passport: SignInPort = {
    consumeCode: (mobile, code) => {
      log.push('sms:consume')
      return code === '123456'
        ? Promise.resolve()
        : Promise.reject(new AppError('SMS_CODE_INVALID'))
    },
    userForMobile: (mobile) => {
      const known = users.get(mobile)
      if (known) return Promise.resolve({ id: known, created: false })
      const id = users.size + 1
      users.set(mobile, id)
      return Promise.resolve({ id, created: true })
    },
    userIdOfMobile: (mobile) => Promise.resolve(users.get(mobile)),
    welcome: (userId) => {
      log.push(`welcome:${userId}`)
      return Promise.resolve()
    },
    openSession: (userId): Promise<LoginOutcome> => {
      log.push(`session:${userId}`)
      return Promise.resolve({
        sid: 'sid',
        loginTime: clock.now(),
        userId: String(userId),
        id: 'id',
        key: 'key',
        display: 'd',
        mobile: 'm',
      })
    },
  }

  let exchangeFails: AppError | null = null
  const mp: NonNullable<WechatServiceDeps['mp']> = {
    appId: APP,
    exchangeCode: (code) => {
      log.push('platform:exchange')
      if (exchangeFails) return Promise.reject(exchangeFails)
      return Promise.resolve({
        openid: `o-${code}`,
        accessToken: 'web',
        scopes: ['snsapi_userinfo'],
        unionid: undefined,
      })
    },
    userInfo: (_token, openid) =>
      Promise.resolve({
        openid,
        nickname: `nick-${openid}`,
        headimgurl: 'https://avatar',
        sex: 0,
        province: '',
        city: '',
        country: '',
        privilege: [],
      }),
    accessToken: () => {
      log.push('platform:token')
      return Promise.resolve({ value: `token-${log.length}`, expiresInSeconds: 7200 })
    },
    jsapiTicket: () => {
      log.push('platform:ticket')
      const next = ticketReplies.shift() ?? 'ticket'
      return next instanceof Error
        ? Promise.reject(next)
        : Promise.resolve({ value: next, expiresInSeconds: 7200 })
    },
  }

  // The cache itself is shared-tokens.test.ts's subject: here, no caching at all.
  const invalidated: string[] = []
  const tokenCache: WechatServiceDeps['tokens'] = {
    get: async (_name, fetch) => (await fetch()).value,
    invalidate: (name, value) => {
      invalidated.push(`${name}:${value}`)
      return Promise.resolve()
    },
  }

  const service = new WechatService({
    transact,
    clock,
    repo,
    mp: options.mp === false ? null : mp,
    passport,
    tokens: tokenCache,
  })
  return {
    service,
    log,
    links,
    users,
    invalidated,
    claims,
    setTickets: (replies: (Error | string)[]) => {
      ticketReplies = replies
    },
    failExchange: (error: AppError | null) => {
      exchangeFails = error
    },
  }
}

const bindRequest = (bindToken: string, mobile = '13800138000', code = '123456') => ({
  bindToken,
  mobile,
  code,
  agreement: true as const,
})

const unlinked = async (s: ReturnType<typeof setup>, code: string) => {
  const outcome = await s.service.openIdFor(code, 'dev')
  if (outcome.linked) throw new Error('expected a first-time open id')
  return outcome
}

describe('WechatService', () => {
  it('refuses everything with WX_UNAVAILABLE when the account is not configured', async () => {
    const s = setup({ mp: false })
    await expect(s.service.openIdFor('c', 'dev')).rejects.toMatchObject({ code: 'WX_UNAVAILABLE' })
    await expect(s.service.shareSignature('https://x/')).rejects.toMatchObject({
      code: 'WX_UNAVAILABLE',
    })
  })

  it('gives a code back only when the platform could not be asked', async () => {
    const s = setup()
    s.failExchange(new AppError('WX_UNAVAILABLE'))
    await expect(s.service.openIdFor('a', 'dev')).rejects.toMatchObject({ code: 'WX_UNAVAILABLE' })
    expect(s.log).toContain('code:release')
    s.failExchange(new AppError('WX_CODE_INVALID'))
    await expect(s.service.openIdFor('b', 'dev')).rejects.toMatchObject({ code: 'WX_CODE_INVALID' })
    s.failExchange(null)
    // 'a' may be tried again; 'b' is spent and never reaches the platform again.
    expect((await s.service.openIdFor('a', 'dev')).openid).toBe('o-a')
    const exchanges = s.log.filter((l) => l === 'platform:exchange').length
    await expect(s.service.openIdFor('b', 'dev')).rejects.toMatchObject({ code: 'WX_CODE_INVALID' })
    expect(s.log.filter((l) => l === 'platform:exchange').length).toBe(exchanges)
  })

  it('checks the bind token before the SMS code is spent', async () => {
    const s = setup()
    await expect(s.service.bind(bindRequest('unknown'), 'dev')).rejects.toMatchObject({
      code: 'WX_BIND_EXPIRED',
    })
    expect(s.log).not.toContain('sms:consume')
  })

  it('binds in one transaction and welcomes a new account after it', async () => {
    const s = setup()
    const { bindToken } = await unlinked(s, 'x')
    s.log.length = 0
    const login = await s.service.bind(bindRequest(bindToken), 'dev')
    expect(login.userId).toBe('1')
    expect(s.log).toEqual([
      'sms:consume',
      'tx:begin',
      'link:insert',
      'session:1',
      'tx:end',
      'welcome:1',
    ])
    expect((await s.service.openIdFor('x2', 'dev')).linked).toBe(false)
  })

  it('an account linked to another open id is WX_ACCOUNT_LINKED and the transaction writes nothing', async () => {
    const s = setup()
    const first = await unlinked(s, 'one')
    await s.service.bind(bindRequest(first.bindToken), 'dev')
    const second = await unlinked(s, 'two')
    s.log.length = 0
    await expect(s.service.bind(bindRequest(second.bindToken), 'dev')).rejects.toMatchObject({
      code: 'WX_ACCOUNT_LINKED',
    })
    expect(s.log).not.toContain('link:insert')
    expect(s.log.some((l) => l.startsWith('session:'))).toBe(false)
    expect(s.links).toEqual([{ openid: 'o-one', userId: 1 }])
    // The token's use was undone with the rest: another number may still take it.
    await expect(
      s.service.bind(bindRequest(second.bindToken, '13800138001'), 'dev'),
    ).resolves.toMatchObject({ userId: '2' })
  })

  it('fetches the ticket again with a fresh access token when the platform refuses the cached one, once', async () => {
    const s = setup()
    s.setTickets([new StaleAccessTokenError(40001), 'ticket-2'])
    const signature = await s.service.shareSignature('https://shop/p?id=1#x')
    expect(signature.signature).toMatch(/^[0-9a-f]{40}$/)
    expect(s.invalidated).toHaveLength(1)
    expect(s.invalidated[0]).toMatch(new RegExp(`^${ACCESS_TOKEN}:`))
    expect(s.log.filter((l) => l === 'platform:token')).toHaveLength(2)

    s.setTickets([new StaleAccessTokenError(40001), new StaleAccessTokenError(42001)])
    await expect(s.service.shareSignature('https://shop/')).rejects.toMatchObject({
      code: 'WX_UNAVAILABLE',
    })
  })
})
