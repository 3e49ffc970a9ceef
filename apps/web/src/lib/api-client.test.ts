import { describe, expect, it, vi } from 'vitest'
import { pageSchema } from '@numisma/contracts/api'
import { WatchStateSchema } from '@numisma/contracts/bidding'
import type { ClientConfig } from '@numisma/contracts/client-config'
import { LOGIN_COOKIES } from '@numisma/contracts/cookies'
import { errorText } from '@numisma/contracts/errors'
import { hmacSignature, parseAuthorization, signedHeaders, xSign } from '@numisma/contracts/signing'
import {
  ApiError,
  buildUrl,
  createApiClient,
  FIRST_SCREEN_WINDOW_MS,
  isNotFound,
  neverSent,
  type ApiClientDeps,
  type Signer,
} from './api-client'
import { memoryCookies } from './cookies'
import { lazySchema, type Schema } from './lazy-schema'
import { deferred } from '../test/deferred'

const CONFIG: ClientConfig = {
  env: 'development',
  services: { main: '/svc/main', search: '/svc/search', push: '/svc/push' },
  apps: {
    h5: { id: 'h5app', key: 'h5-secret' },
    search: { id: 'searchapp', key: 'search-secret' },
  },
  signSecret: 'shared-secret',
  wechat: null,
  chat: { agentId: 'agent' },
}

const SIGNED_IN = {
  deviceId: '1700000000000abcdefgh',
  userId: 'u42',
  id: 'sess-id',
  key: 'sess-key',
  display: '钱币爱好者',
  mobile: '13800138000',
  agreement: '1',
  loginTime: '1700000000000',
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

function setup(overrides: Partial<ApiClientDeps> = {}, cookies: Record<string, string> = {}) {
  const jar = memoryCookies({ deviceId: 'dev-1', ...cookies })
  const deps: ApiClientDeps = {
    fetch: vi.fn(() => Promise.resolve(json(200, { data: { ok: true } }))),
    cookies: jar,
    config: () => CONFIG,
    language: () => 'zh-CN',
    isOnline: () => true,
    alert: vi.fn(),
    toast: vi.fn(),
    now: () => 1_700_000_000_000,
    osInfo: 'os=h5;version=2.0.0',
    timeoutMs: 20_000,
    ...overrides,
  }
  return { deps, jar, client: createApiClient(deps) }
}

function lastCall(fetchMock: unknown): [string, RequestInit] {
  const calls = (fetchMock as ReturnType<typeof vi.fn>).mock.calls
  return calls.at(-1) as [string, RequestInit]
}

describe('request', () => {
  it('alerts and makes no call while offline', async () => {
    const { deps, client } = setup({ isOnline: () => false })
    await expect(
      client.request({ path: '/user/@statistics', defaultError: 'GET_USER_FAILED' }),
    ).rejects.toMatchObject({
      code: 'OFFLINE',
    })
    expect(deps.alert).toHaveBeenCalledWith(errorText('OFFLINE', 'zh'))
    expect(deps.fetch).not.toHaveBeenCalled()
  })

  it('returns data on a 2xx with a data field', async () => {
    const { client } = setup({ fetch: vi.fn(() => Promise.resolve(json(200, { data: [1, 2] }))) })
    await expect(
      client.request({ path: '/pub/@time', defaultError: 'GET_TIME_FAILED' }),
    ).resolves.toEqual([1, 2])
  })

  it('signs anonymous calls with the h5 pair, verifiable with the shared helpers', async () => {
    const { deps, client } = setup()
    await client.request({
      path: '/auction/42',
      query: { x: 1 },
      defaultError: 'GET_ITEM_INFO_FAILED',
    })
    const [url, init] = lastCall(deps.fetch)
    expect(url).toBe('/svc/main/auction/42?x=1')
    expect(init.credentials).toBe('include')
    const headers = init.headers as Record<string, string>
    expect(headers['x-app-id']).toBe('h5app')
    expect(headers['x-user-id']).toBeUndefined()
    expect(headers['accept-language']).toBe('zh-CN')
    const auth = parseAuthorization(headers.authorization)
    expect(auth?.appId).toBe('h5app')
    expect(auth?.signature).toBe(hmacSignature('h5-secret', 'GET', '/auction/42', 'dev-1'))
    expect(headers['x-timestamp']).toBe('1700000000000')
    expect(headers['x-sign']).toBe(
      xSign(headers['x-nonce'] ?? '', '1700000000000', 'shared-secret'),
    )
  })

  it('signs the search service with the search pair', async () => {
    const { deps, client } = setup()
    await client.request({
      service: 'search',
      path: '/api/search/wechat',
      defaultError: 'GET_LIST_FAILED',
    })
    const [url, init] = lastCall(deps.fetch)
    expect(url).toBe('/svc/search/api/search/wechat')
    const headers = init.headers as Record<string, string>
    expect(parseAuthorization(headers.authorization)?.signature).toBe(
      hmacSignature('search-secret', 'GET', '/api/search/wechat', 'dev-1'),
    )
  })

  it('signs with the session pair and sends the user id when signed in', async () => {
    const { deps, client } = setup({ language: () => 'en' }, SIGNED_IN)
    await client.request({
      method: 'POST',
      path: '/bidding/bid',
      body: { lotId: 1 },
      defaultError: 'BID_FAILED',
    })
    const [, init] = lastCall(deps.fetch)
    const headers = init.headers as Record<string, string>
    expect(headers['x-app-id']).toBe('sess-id')
    expect(headers['x-user-id']).toBe('u42')
    expect(headers['accept-language']).toBe('en')
    expect(headers['content-type']).toBe('application/json')
    expect(init.body).toBe('{"lotId":1}')
    expect(parseAuthorization(headers.authorization)?.signature).toBe(
      hmacSignature('sess-key', 'POST', '/bidding/bid', SIGNED_IN.deviceId),
    )
  })

  it('clears the login cookies on 401 and toasts the server message', async () => {
    const { deps, jar, client } = setup(
      {
        fetch: vi.fn(() =>
          Promise.resolve(json(401, { code: 'SESSION_INVALID', message: '登录已失效' })),
        ),
      },
      SIGNED_IN,
    )
    const error: unknown = await client
      .request({ path: '/user/@statistics', defaultError: 'GET_USER_FAILED' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 'SESSION_INVALID', status: 401 })
    for (const name of LOGIN_COOKIES) expect(jar.get(name)).toBeUndefined()
    expect(jar.get('deviceId')).toBe(SIGNED_IN.deviceId)
    expect(deps.toast).toHaveBeenCalledWith('登录已失效')
  })

  it('clears the login cookies on 403 too', async () => {
    const { jar, client } = setup(
      {
        fetch: vi.fn(() => Promise.resolve(json(403, { code: 'FORBIDDEN', message: '无权访问' }))),
      },
      SIGNED_IN,
    )
    await expect(
      client.request({ path: '/user/address', defaultError: 'GET_ADDRESS_LIST_FAILED' }),
    ).rejects.toThrow()
    expect(jar.get('userId')).toBeUndefined()
  })

  it('keeps the login cookies on other failures and falls back to the default text', async () => {
    const { deps, jar, client } = setup(
      { fetch: vi.fn(() => Promise.resolve(new Response('oops', { status: 500 }))) },
      SIGNED_IN,
    )
    await expect(
      client.request({ path: '/user/@statistics', defaultError: 'GET_USER_FAILED' }),
    ).rejects.toMatchObject({
      code: 'GET_USER_FAILED',
      status: 500,
    })
    expect(jar.get('userId')).toBe('u42')
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_USER_FAILED', 'zh'))
  })

  it('treats a 2xx without data as a failure', async () => {
    const { deps, client } = setup({ fetch: vi.fn(() => Promise.resolve(json(200, { ok: true }))) })
    await expect(
      client.request({ path: '/pub/@time', defaultError: 'GET_TIME_FAILED' }),
    ).rejects.toMatchObject({
      code: 'GET_TIME_FAILED',
    })
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_TIME_FAILED', 'zh'))
  })

  it('does not toast when silent', async () => {
    const { deps, client } = setup({
      fetch: vi.fn(() => Promise.resolve(json(400, { code: 'X', message: 'm' }))),
    })
    await expect(
      client.request({ path: '/x', defaultError: 'REQUEST_FAILED', silent: true }),
    ).rejects.toThrow('m')
    expect(deps.toast).not.toHaveBeenCalled()
  })

  it('does not toast the failures a silent predicate picks, and toasts the others', async () => {
    const replies = [json(404, { code: 'NOT_FOUND', message: '内容不存在' }), json(500, {})]
    const { deps, client } = setup({ fetch: vi.fn(() => Promise.resolve(replies.shift()!)) })
    const ask = () =>
      client.request({ path: '/x', defaultError: 'GET_ITEM_INFO_FAILED', silent: isNotFound })
    const missing = await ask().catch((error: unknown) => error)
    expect(isNotFound(missing)).toBe(true)
    expect(deps.toast).not.toHaveBeenCalled()
    const broken = await ask().catch((error: unknown) => error)
    expect(isNotFound(broken)).toBe(false)
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_ITEM_INFO_FAILED', 'zh'))
  })

  it('gives up after the timeout with the TIMEOUT toast', async () => {
    const hanging = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('aborted', 'AbortError')),
          )
        }),
    )
    const { deps, client } = setup({ fetch: hanging, timeoutMs: 20 })
    await expect(
      client.request({ path: '/pub/@time', defaultError: 'GET_TIME_FAILED' }),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
    })
    expect(deps.toast).toHaveBeenCalledWith(errorText('TIMEOUT', 'zh'))
  })

  it('reports a network failure with the default text', async () => {
    const { deps, client } = setup({
      fetch: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    })
    await expect(
      client.request({ path: '/pub/@time', defaultError: 'GET_TIME_FAILED' }),
    ).rejects.toMatchObject({
      code: 'GET_TIME_FAILED',
      status: 0,
    })
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_TIME_FAILED', 'zh'))
  })

  it('validates data with a schema', async () => {
    const { client } = setup({
      fetch: vi.fn(() => Promise.resolve(json(200, { data: { n: 'x' } }))),
    })
    const schema = {
      parse(value: unknown): { n: number } {
        if (typeof value === 'object' && value && typeof (value as { n: unknown }).n === 'number')
          return value as { n: number }
        throw new Error('bad')
      },
    }
    await expect(
      client.request({ path: '/x', defaultError: 'GET_INFO_FAILED', schema }),
    ).rejects.toMatchObject({
      code: 'GET_INFO_FAILED',
    })
  })

  it('reads paged lists', async () => {
    const { client } = setup({
      fetch: vi.fn(() =>
        Promise.resolve(json(200, { data: [{ id: 1 }], page: 2, pageSize: 10, total: 11 })),
      ),
    })
    await expect(
      client.requestPage({ path: '/x', defaultError: 'GET_LIST_FAILED' }),
    ).resolves.toEqual({
      data: [{ id: 1 }],
      page: 2,
      pageSize: 10,
      total: 11,
    })
  })

  it('checks the whole page envelope against the contract, not only its items', async () => {
    const reply = (body: unknown) => setup({ fetch: vi.fn(() => Promise.resolve(json(200, body))) })
    const options = {
      path: '/x',
      defaultError: 'GET_LIST_FAILED',
      schema: pageSchema(WatchStateSchema),
    } as const
    const page = { data: [{ lotId: 1, watching: true }], page: 1, pageSize: 10, total: 1 }
    await expect(reply(page).client.requestPage(options)).resolves.toEqual(page)
    // No total: before, this read as "one page of one item" and the list quietly ended.
    const { client, deps } = reply({ ...page, total: undefined })
    await expect(client.requestPage(options)).rejects.toMatchObject({ code: 'GET_LIST_FAILED' })
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_LIST_FAILED', 'zh'))
  })
})

describe('a lazy schema (issue 13: zod after the first render)', () => {
  const WATCH = { path: '/auction/7/@attention', defaultError: 'GET_ITEM_INFO_FAILED' } as const

  it('loads alongside a GET, and checks the answer once both are in', async () => {
    const { client, deps } = setup({
      fetch: vi.fn(() => Promise.resolve(json(200, { data: { lotId: 7, watching: true } }))),
    })
    const code = deferred<Schema<{ lotId: number; watching: boolean }>>()
    const onAnswer = vi.fn()
    const answer = client.request({ ...WATCH, schema: lazySchema(() => code.promise), onAnswer })
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalled())
    // The call went out and its answer came while the check's code was still loading.
    expect(deps.fetch).toHaveBeenCalledTimes(1)
    code.resolve(WatchStateSchema)
    await expect(answer).resolves.toEqual({ lotId: 7, watching: true })
  })

  it('fails a bad answer with the default error, toasted, as an eager schema does', async () => {
    const { client, deps } = setup({
      fetch: vi.fn(() => Promise.resolve(json(200, { data: { nope: 1 } }))),
    })
    const schema = lazySchema(() =>
      import('@numisma/contracts/bidding').then((m) => m.WatchStateSchema),
    )
    await expect(client.request({ ...WATCH, schema })).rejects.toMatchObject({
      code: 'GET_ITEM_INFO_FAILED',
      status: 200,
    })
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_ITEM_INFO_FAILED', 'zh'))
  })

  it('checks a whole page envelope', async () => {
    const page = { data: [{ lotId: 1, watching: true }], page: 1, pageSize: 10, total: 1 }
    const reply = (body: unknown) => setup({ fetch: vi.fn(() => Promise.resolve(json(200, body))) })
    const schema = lazySchema(() =>
      Promise.all([import('@numisma/contracts/api'), import('@numisma/contracts/bidding')]).then(
        ([api, bidding]) => api.pageSchema(bidding.WatchStateSchema),
      ),
    )
    const options = { path: '/x', defaultError: 'GET_LIST_FAILED', schema } as const
    await expect(reply(page).client.requestPage(options)).resolves.toEqual(page)
    const { client, deps } = reply({ ...page, total: undefined })
    await expect(client.requestPage(options)).rejects.toMatchObject({ code: 'GET_LIST_FAILED' })
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_LIST_FAILED', 'zh'))
  })

  it('fails a GET with the default error when its check cannot be loaded, quietly if silent', async () => {
    const { client, deps } = setup()
    const schema = lazySchema<unknown>(() => Promise.reject(new Error('chunk failed')))
    await expect(client.request({ ...WATCH, schema })).rejects.toMatchObject({
      code: 'GET_ITEM_INFO_FAILED',
    })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
    expect(deps.toast).toHaveBeenCalledWith(errorText('GET_ITEM_INFO_FAILED', 'zh'))
    vi.mocked(deps.toast).mockClear()
    await expect(client.request({ ...WATCH, schema, silent: true })).rejects.toBeInstanceOf(
      ApiError,
    )
    expect(deps.toast).not.toHaveBeenCalled()
  })

  it('sends a change only once its check is loaded, and not at all when it cannot be', async () => {
    const { client, deps } = setup({
      fetch: vi.fn(() => Promise.resolve(json(200, { data: { lotId: 7, watching: true } }))),
    })
    const code = deferred<Schema<{ lotId: number; watching: boolean }>>()
    const watch = client.request({
      ...WATCH,
      method: 'POST',
      schema: lazySchema(() => code.promise),
    })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(deps.fetch).not.toHaveBeenCalled()
    code.resolve(WatchStateSchema)
    await expect(watch).resolves.toEqual({ lotId: 7, watching: true })
    expect(deps.fetch).toHaveBeenCalledTimes(1)

    const refused = client.request({
      ...WATCH,
      method: 'POST',
      schema: lazySchema<unknown>(() => Promise.reject(new Error('chunk failed'))),
    })
    await expect(refused).rejects.toMatchObject({ code: 'GET_ITEM_INFO_FAILED', status: 0 })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
  })

  it('offline, alerts as for any call, whether or not its check could be loaded', async () => {
    const { client, deps } = setup({ isOnline: () => false })
    const schema = lazySchema<unknown>(() => Promise.reject(new Error('chunk failed')))
    for (const method of ['GET', 'POST'] as const) {
      await expect(client.request({ ...WATCH, method, schema })).rejects.toMatchObject({
        code: 'OFFLINE',
      })
    }
    expect(deps.alert).toHaveBeenCalledTimes(2)
    expect(deps.toast).not.toHaveBeenCalled()
    expect(deps.fetch).not.toHaveBeenCalled()
  })
})

describe('the signer (issue 13: hashing after the first render)', () => {
  const USER = { path: '/user/@statistics', defaultError: 'GET_USER_FAILED' } as const

  it('holds the first calls until its code has arrived, loads it once, and signs them', async () => {
    const code = deferred<Signer>()
    const signer = vi.fn(() => code.promise)
    const { client, deps } = setup({ signer })
    const first = client.request(USER)
    const second = client.request({ ...USER, method: 'POST' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(deps.fetch).not.toHaveBeenCalled()
    code.resolve(signedHeaders)
    await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }])
    expect(signer).toHaveBeenCalledTimes(1)
    const headers = lastCall(deps.fetch)[1].headers as Record<string, string>
    expect(parseAuthorization(headers.authorization)?.signature).toBe(
      hmacSignature('h5-secret', 'POST', '/user/@statistics', 'dev-1'),
    )
  })

  it('fails a call as the network would when its code cannot be had, sending nothing; the next call loads it again', async () => {
    const signer = vi
      .fn<() => Promise<Signer>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue(signedHeaders)
    const { client, deps } = setup({ signer })
    const failed = await client.request({ ...USER, method: 'POST' }).catch((e: unknown) => e)
    expect(failed).toMatchObject({ code: 'OFFLINE', status: 0 })
    expect((failed as ApiError).message).toBe(errorText('OFFLINE', 'zh'))
    expect(neverSent(failed)).toBe(true)
    expect(deps.toast).toHaveBeenCalledWith(errorText('OFFLINE', 'zh'))
    expect(deps.fetch).not.toHaveBeenCalled()

    await expect(client.request(USER)).resolves.toEqual({ ok: true })
    expect(signer).toHaveBeenCalledTimes(2)
    expect(deps.fetch).toHaveBeenCalledTimes(1)
  })

  it('times a call out while it waits for the code, and sends nothing', async () => {
    const code = deferred<Signer>()
    const { client, deps } = setup({ signer: () => code.promise, timeoutMs: 20 })
    const failed = await client.request(USER).catch((e: unknown) => e)
    expect(failed).toMatchObject({ code: 'TIMEOUT', status: 0 })
    expect(deps.toast).toHaveBeenCalledWith(errorText('TIMEOUT', 'zh'))
    code.resolve(signedHeaders)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(deps.fetch).not.toHaveBeenCalled()
  })

  it('sends nothing for a call cancelled while it waits for the code, and says nothing', async () => {
    const code = deferred<Signer>()
    const { client, deps } = setup({ signer: () => code.promise })
    const cancel = new AbortController()
    const call = client.request({ ...USER, signal: cancel.signal }).catch((e: unknown) => e)
    cancel.abort()
    expect(await call).toMatchObject({ code: 'ABORTED' })
    // Cancelled before it was made, likewise.
    await expect(client.request({ ...USER, signal: cancel.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    })
    code.resolve(signedHeaders)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(deps.fetch).not.toHaveBeenCalled()
    expect(deps.toast).not.toHaveBeenCalled()
  })

  it('fails quietly when the call is silent', async () => {
    const signer = () => Promise.reject(new Error('chunk failed'))
    const { client, deps } = setup({ signer })
    await expect(client.request({ ...USER, silent: true })).rejects.toMatchObject({
      code: 'OFFLINE',
    })
    expect(deps.toast).not.toHaveBeenCalled()
  })
})

describe('buildUrl', () => {
  it('joins base, path and query, dropping empty values', () => {
    expect(buildUrl('/svc/main/', '/a', { b: 'x y', c: undefined, d: null, e: 0 })).toBe(
      '/svc/main/a?b=x+y&e=0',
    )
    expect(buildUrl('https://api.example/svc/main', 'auction/1')).toBe(
      'https://api.example/svc/main/auction/1',
    )
  })
})

describe('a phone whose clock is wrong', () => {
  it('learns the server time from the first TIMESTAMP_EXPIRED and retries once, signed right', async () => {
    const serverNow = Date.UTC(2026, 10, 21, 6, 0, 0)
    const fetchMock = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
      const stamp = Number((init?.headers as Record<string, string>)['x-timestamp'])
      if (Math.abs(stamp - serverNow) > 300_000) {
        return Promise.resolve(
          new Response(JSON.stringify({ code: 'TIMESTAMP_EXPIRED', message: 'expired' }), {
            status: 401,
            headers: {
              'content-type': 'application/json',
              date: new Date(serverNow).toUTCString(),
            },
          }),
        )
      }
      return Promise.resolve(json(200, { data: { ok: true } }))
    })
    const { client, deps, jar } = setup(
      { fetch: fetchMock, now: () => serverNow - 2 * 60 * 60 * 1000 },
      SIGNED_IN,
    )
    await expect(
      client.request({ path: '/user/@statistics', defaultError: 'GET_USER_FAILED' }),
    ).resolves.toEqual({ ok: true })
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(deps.toast).not.toHaveBeenCalled()
    expect(jar.get('userId')).toBe('u42')
    // The next call is stamped right the first time.
    await client.request({ path: '/pub/@time', defaultError: 'GET_TIME_FAILED' })
    expect(fetchMock).toHaveBeenCalledTimes(3)
  })
})

describe('the first screen inlined by the server (issue 13)', () => {
  const BANNERS = '/svc/main/mall/advertis/0'

  function withFirst(first: Record<string, unknown>, overrides: Partial<ApiClientDeps> = {}) {
    return setup({ firstScreen: first, ...overrides })
  }

  it('answers the first matching GET from the inlined body, once, then from the network', async () => {
    const first: Record<string, unknown> = { [BANNERS]: { data: ['inlined'] } }
    const { client, deps } = withFirst(first)
    const call = () => client.request({ path: '/mall/advertis/0', defaultError: 'GET_LIST_FAILED' })
    await expect(call()).resolves.toEqual(['inlined'])
    expect(deps.fetch).not.toHaveBeenCalled()
    expect(first).toEqual({})
    await expect(call()).resolves.toEqual({ ok: true })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
  })

  it('matches on the service, path and query the client would fetch', async () => {
    const first: Record<string, unknown> = {
      '/svc/search/api/search/wechat?status=live&page=1': {
        data: [],
        page: 1,
        pageSize: 10,
        total: 0,
      },
    }
    const { client, deps } = withFirst(first)
    // Same path on the main service, and another query: both go to the network.
    await client.request({
      path: '/api/search/wechat',
      query: { status: 'live', page: 1 },
      defaultError: 'GET_LIST_FAILED',
    })
    await client.request({
      service: 'search',
      path: '/api/search/wechat',
      query: { status: 'live', page: 2 },
      defaultError: 'GET_LIST_FAILED',
    })
    expect(deps.fetch).toHaveBeenCalledTimes(2)
    await expect(
      client.requestPage({
        service: 'search',
        path: '/api/search/wechat',
        query: { status: 'live', page: 1 },
        defaultError: 'GET_LIST_FAILED',
      }),
    ).resolves.toEqual({ data: [], page: 1, pageSize: 10, total: 0 })
    expect(deps.fetch).toHaveBeenCalledTimes(2)
  })

  it('takes the inlined body as the server checked it, without loading the call’s check', async () => {
    const body = { data: { lotId: 7, watching: true, extra: 1 } }
    const { client, deps } = withFirst({ '/svc/main/auction/7/@attention': body })
    const load = vi.fn(() => Promise.resolve(WatchStateSchema))
    await expect(
      client.request({
        path: '/auction/7/@attention',
        defaultError: 'GET_ITEM_INFO_FAILED',
        schema: lazySchema(load),
      }),
    ).resolves.toBe(body.data)
    expect(load).not.toHaveBeenCalled()
    expect(deps.fetch).not.toHaveBeenCalled()
  })

  it('is not used after the first 30 s', async () => {
    let now = 1_700_000_000_000
    const first: Record<string, unknown> = { [BANNERS]: { data: ['stale'] } }
    const { client, deps } = withFirst(first, { now: () => now })
    now += FIRST_SCREEN_WINDOW_MS + 1
    await expect(
      client.request({ path: '/mall/advertis/0', defaultError: 'GET_LIST_FAILED' }),
    ).resolves.toEqual({ ok: true })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
    expect(first).toEqual({})
  })

  it('never answers a POST', async () => {
    const first: Record<string, unknown> = { '/svc/main/auction/7/@attention': { data: 'inlined' } }
    const { client, deps } = withFirst(first)
    await expect(
      client.request({
        method: 'POST',
        path: '/auction/7/@attention',
        defaultError: 'GET_ITEM_INFO_FAILED',
      }),
    ).resolves.toEqual({ ok: true })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
    expect(first).toHaveProperty(['/svc/main/auction/7/@attention'])
  })

  it('gives a query its initial data synchronously, once, without waiting for its check', async () => {
    const first: Record<string, unknown> = {
      '/svc/main/auction/7/@attention': { data: { lotId: 7, watching: true } },
    }
    const { client, deps } = withFirst(first)
    const load = vi.fn(() => Promise.resolve(WatchStateSchema))
    const call = {
      path: '/auction/7/@attention',
      defaultError: 'GET_ITEM_INFO_FAILED',
      schema: lazySchema(load),
    } as const
    // The first render takes it as it is: the server checked it when it inlined it.
    expect(client.firstScreen(call)).toEqual({ lotId: 7, watching: true })
    expect(load).not.toHaveBeenCalled()
    expect(first).toEqual({})
    expect(client.firstScreen(call)).toBeUndefined()
    // The query's later fetches are checked.
    vi.mocked(deps.fetch).mockResolvedValueOnce(json(200, { data: { lotId: 7, watching: false } }))
    await expect(client.request(call)).resolves.toEqual({ lotId: 7, watching: false })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('gives no initial data for a POST, another query or after the first 30 s', () => {
    let now = 1_700_000_000_000
    const first: Record<string, unknown> = { [BANNERS]: { data: ['inlined'] } }
    const { client } = withFirst(first, { now: () => now })
    const banners = { path: '/mall/advertis/0', defaultError: 'GET_LIST_FAILED' } as const
    expect(client.firstScreen({ ...banners, method: 'POST' })).toBeUndefined()
    expect(client.firstScreen({ ...banners, query: { page: 1 } })).toBeUndefined()
    expect(client.firstScreen({ ...banners, service: 'search' })).toBeUndefined()
    expect(first).toHaveProperty([BANNERS])
    now += FIRST_SCREEN_WINDOW_MS + 1
    expect(client.firstScreen(banners)).toBeUndefined()
    expect(first).toEqual({})
  })

  it('ignores an entry that is no success envelope and asks the network', async () => {
    const { client, deps } = withFirst({ [BANNERS]: { code: 'X' } })
    await expect(
      client.request({ path: '/mall/advertis/0', defaultError: 'GET_LIST_FAILED' }),
    ).resolves.toEqual({ ok: true })
    expect(deps.fetch).toHaveBeenCalledTimes(1)
  })
})
