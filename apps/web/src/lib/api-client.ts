import {
  FIRST_SCREEN_GLOBAL,
  FIRST_SCREEN_REUSE_MS,
  type ClientConfig,
} from '@numisma/contracts/client-config'
import { COOKIE } from '@numisma/contracts/cookies'
import { clientErrorText, type ClientErrorCode } from '@numisma/contracts/errors-client'
import type { SignInput } from '@numisma/contracts/signing'
import { HEADER, osInfoHeader } from '@numisma/contracts/signing-headers'
import { browserCookies, clearLoginCookies, readSession, type CookieJar } from './cookies'
import { getClientConfig } from './config'
import { currentLanguage, toLocale, type Language } from './language'
import { inBackground } from './background'
import { inlinedData } from './inlined-data'
import { loadSchema, type LazySchema, type Schema } from './lazy-schema'
import { sharedLoad } from './shared-load'

/** Spec §9: every call gives up after 20 s. */
export const REQUEST_TIMEOUT_MS = 20_000

/** How long after start the bodies the server inlined into the page may answer a call (issue 13). */
export const FIRST_SCREEN_WINDOW_MS = 30_000

export type ServiceName = 'main' | 'search'
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type QueryValue = string | number | boolean | null | undefined

export interface RequestOptions<T> {
  /** Which service (spec §7): the main one unless noted. */
  service?: ServiceName
  method?: HttpMethod
  /** The spec §7 path after the service base, e.g. `/user/@statistics`. */
  path: string
  query?: Record<string, QueryValue>
  body?: unknown
  /**
   * The catalogue text shown when the server gives no message (spec §8): a client code, whose text
   * the first load carries (contracts/errors-client); the server's refusals bring their own.
   */
  defaultError: ClientErrorCode
  /**
   * Checks and types `data`; a mismatch is a failure with the default error. Modules the shop's
   * first load reaches give a {@link LazySchema} (lib/lazy-schema.ts): it loads alongside a GET, and
   * before anything else is sent, so a change is only made once its answer can be checked.
   */
  schema?: Schema<T> | LazySchema<T>
  /**
   * Called when the answer has arrived, before it is checked (whose code may still be loading): a
   * caller that times the round trip reads its clock here (lib/server-clock.ts).
   */
  onAnswer?: () => void
  /**
   * Do not toast a failure (the caller shows it its own way): every failure, or those a predicate
   * picks, e.g. `isNotFound` for a page that says "does not exist" instead.
   */
  silent?: boolean | ((error: ApiError) => boolean)
  idempotencyKey?: string
  signal?: AbortSignal
}

export interface Page<T> {
  data: T[]
  page: number
  pageSize: number
  total: number
}

/** One error type for every failed call: `code` is a catalogue code or the server's code. */
export class ApiError extends Error {
  readonly code: string
  readonly status: number
  readonly details: Record<string, unknown> | undefined

  constructor(code: string, status: number, message: string, details?: Record<string, unknown>) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.details = details
  }
}

/** True for the server's 404: what was asked for does not exist (a page shows it, not a toast). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404
}

function isSilent(options: Pick<RequestOptions<unknown>, 'silent'>, error: ApiError): boolean {
  return typeof options.silent === 'function' ? options.silent(error) : options.silent === true
}

/** True when a call never reached the server (offline, aborted): nothing there changed. */
export function neverSent(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'OFFLINE' || error.code === 'ABORTED')
}

/** Signs a call: the spec §7 headers (contracts/signing's signedHeaders). */
export type Signer = (input: SignInput) => Record<string, string>

/**
 * The signer's code — contracts/signing and its hashing — arrives after the first render (issue
 * 13), whose data the server inlined: no call needs it before. One load shared by every call, and
 * started by {@link prepareSigning} right after the first render, so it is usually there by the
 * first call; one that failed is tried again by the next call.
 */
const loadSigner = sharedLoad(() =>
  import('@numisma/contracts/signing').then((signing): Signer => signing.signedHeaders),
)

/** Starts loading the signer (after the first render), so that the first call need not wait. */
export function prepareSigning(): void {
  loadSigner().catch(() => undefined)
}

export interface ApiClientDeps {
  fetch: typeof fetch
  cookies: CookieJar
  config: () => ClientConfig
  language: () => Language
  isOnline: () => boolean
  alert: (text: string) => void
  toast: (text: string) => void
  now: () => number
  osInfo: string
  timeoutMs: number
  /** Loads the signer: by default contracts/signing's (loadSigner). One load at a time is shared. */
  signer?: () => Promise<Signer>
  /**
   * Issue 13: the JSON bodies of a landing page's first GET calls, inlined by the server and keyed
   * by the URL they would be fetched from. Each answers one call, within FIRST_SCREEN_WINDOW_MS of
   * the client's creation, and is deleted once used (all of them once the window has passed).
   */
  firstScreen?: Record<string, unknown> | undefined
}

export interface ApiClient {
  request<T = unknown>(options: RequestOptions<T>): Promise<T>
  /** A paged list (DESIGN §2); `schema` checks the whole envelope, e.g. contracts' `pageSchema`. */
  requestPage<T = unknown>(options: RequestOptions<Page<T>>): Promise<Page<T>>
  /**
   * The answer the server inlined into the page for this GET (issue 13), taken once. For a query's
   * `initialData`: the page's first render shows it, where a query function would answer only
   * after that render, in a second, blocking one. Undefined when there is none (the query then
   * fetches). Like every inlined answer it is not checked here: the server checked it against the
   * same contract when it inlined it (apps/server platform/first-screen.ts), and the first render
   * must not wait for the check's code (zod, loaded later).
   */
  firstScreen<T = unknown>(options: RequestOptions<T>): T | undefined
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  // How far the phone's clock is off the server's. Requests are stamped with server time, so a
  // phone set minutes wrong still passes the ±300 s check (learnt from the first refusal).
  let clockOffset = 0
  const startedAt = deps.now()
  const signer = sharedLoad(deps.signer ?? loadSigner)

  /** The inlined success envelope for this GET, taken out of the page's bodies; else undefined. */
  function takeFirstScreen(method: HttpMethod, url: string): Record<string, unknown> | undefined {
    const first = deps.firstScreen
    if (!first) return undefined
    if (deps.now() - startedAt > FIRST_SCREEN_WINDOW_MS) {
      for (const key of Object.keys(first)) Reflect.deleteProperty(first, key)
      return undefined
    }
    if (method !== 'GET' || !Object.hasOwn(first, url)) return undefined
    const body = first[url]
    Reflect.deleteProperty(first, url)
    return isRecord(body) && 'data' in body ? body : undefined
  }

  async function send(
    options: RequestOptions<unknown>,
    retried = false,
  ): Promise<Record<string, unknown>> {
    const locale = toLocale(deps.language())
    const method = options.method ?? 'GET'
    const config = deps.config()
    const service = options.service ?? 'main'
    const url = buildUrl(config.services[service], options.path, options.query)

    // Spec §5: no call at all while offline, and the user is told with an alert.
    if (!deps.isOnline()) {
      const text = clientErrorText('OFFLINE', locale)
      deps.alert(text)
      throw new ApiError('OFFLINE', 0, text)
    }

    const fail = (
      code: string,
      status: number,
      message: string,
      details?: Record<string, unknown>,
    ) => {
      if (status === 401 || status === 403) clearLoginCookies(deps.cookies)
      const error = new ApiError(code, status, message, details)
      if (!isSilent(options, error)) deps.toast(message)
      return error
    }

    // The call's time limit and its caller's cancel run from here: waiting for the signer's code
    // is part of the call.
    const controller = new AbortController()
    const onAbort = () => controller.abort()
    options.signal?.addEventListener('abort', onAbort)
    if (options.signal?.aborted) controller.abort()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, deps.timeoutMs)
    const settle = () => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }

    // Never sent unsigned: without the signer's code the call fails as the network would (spec
    // §8), and sends nothing (neverSent); the next call loads it again. A call that times out or
    // is cancelled while it waits is not sent either.
    let sign: Signer
    try {
      sign = await untilAborted(signer(), controller.signal)
    } catch (cause) {
      settle()
      if (timedOut) throw fail('TIMEOUT', 0, clientErrorText('TIMEOUT', locale))
      if (options.signal?.aborted) throw new ApiError('ABORTED', 0, 'aborted', { cause })
      throw fail('OFFLINE', 0, clientErrorText('OFFLINE', locale))
    }

    const session = readSession(deps.cookies)
    const app = session
      ? { id: session.id, key: session.key }
      : config.apps[service === 'main' ? 'h5' : 'search']
    const headers: Record<string, string> = {
      ...sign({
        method,
        path: options.path,
        appId: app.id,
        key: app.key,
        deviceId: deps.cookies.get(COOKIE.deviceId) ?? '',
        signSecret: config.signSecret,
        osInfo: deps.osInfo,
        userId: session?.userId,
        now: deps.now() + clockOffset,
      }),
      [HEADER.locale]: deps.language(),
      accept: 'application/json',
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    if (options.idempotencyKey) headers[HEADER.idempotencyKey] = options.idempotencyKey

    let res: Response
    let body: unknown
    try {
      res = await deps.fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'include',
        signal: controller.signal,
      })
      body = await res.json().catch(() => null)
    } catch (cause) {
      if (timedOut) throw fail('TIMEOUT', 0, clientErrorText('TIMEOUT', locale))
      if (options.signal?.aborted) throw new ApiError('ABORTED', 0, 'aborted', { cause })
      throw fail(options.defaultError, 0, clientErrorText(options.defaultError, locale))
    } finally {
      settle()
    }

    // Spec §5: success is a 2xx status with a `data` field.
    if (res.status >= 200 && res.status < 300 && isRecord(body) && 'data' in body) return body
    const server = isRecord(body) ? body : {}
    const code = typeof server.code === 'string' ? server.code : options.defaultError
    if (res.status === 401 && code === 'TIMESTAMP_EXPIRED' && !retried) {
      const serverNow = Date.parse(res.headers.get('date') ?? '')
      if (!Number.isNaN(serverNow)) {
        clockOffset = serverNow - deps.now()
        return send(options, true)
      }
    }
    const message =
      typeof server.message === 'string' && server.message !== ''
        ? server.message
        : clientErrorText(options.defaultError, locale)
    throw fail(code, res.status, message, isRecord(server.details) ? server.details : undefined)
  }

  /** The failure of an answer that does not pass its check, or whose check could not be loaded. */
  function refused(options: RequestOptions<unknown>, status: number): ApiError {
    const text = clientErrorText(options.defaultError, toLocale(deps.language()))
    const error = new ApiError(options.defaultError, status, text)
    if (!isSilent(options, error)) deps.toast(text)
    return error
  }

  /** The inlined success envelope for this call (a GET the page answered already), if any. */
  function inlinedFor(options: RequestOptions<unknown>): Record<string, unknown> | undefined {
    const base = deps.config().services[options.service ?? 'main']
    return takeFirstScreen(options.method ?? 'GET', buildUrl(base, options.path, options.query))
  }

  /**
   * The call's answer — `data`, or the whole envelope for a paged list — checked by its schema.
   * A lazy schema loads alongside a GET, so the call costs no extra round trip once it is loaded,
   * and before any other method is sent: nothing changes on the server that could not be checked.
   */
  async function answer<T>(options: RequestOptions<T>, envelope: boolean): Promise<T> {
    // The server answered this one already, in the page itself (issue 13): no round trip, and
    // checked by the server when it inlined it (see firstScreen).
    const inlined = inlinedFor(options)
    if (inlined) return (envelope ? inlined : inlined.data) as T
    const checking: Promise<Schema<T> | null | undefined> = options.schema
      ? loadSchema(options.schema).catch(() => null)
      : Promise.resolve(undefined)
    // (Offline, send() alerts and sends nothing, whatever the check.)
    if ((options.method ?? 'GET') !== 'GET' && deps.isOnline() && (await checking) === null) {
      throw refused(options, 0)
    }
    const body = await send(options)
    options.onAnswer?.()
    const value = envelope ? body : body.data
    const check = await checking
    if (check === undefined) return value as T
    if (check === null) throw refused(options, 0)
    try {
      return check.parse(value)
    } catch {
      throw refused(options, 200)
    }
  }

  return {
    firstScreen<T>(options: RequestOptions<T>): T | undefined {
      if ((options.method ?? 'GET') !== 'GET') return undefined
      return inlinedFor(options)?.data as T | undefined
    },
    request<T>(options: RequestOptions<T>): Promise<T> {
      return answer(options, false)
    },
    requestPage<T>(options: RequestOptions<Page<T>>): Promise<Page<T>> {
      // The whole envelope is checked, not only `data`: a page without its total would
      // otherwise end an infinite list early without a word.
      return answer(options, true)
    },
  }
}

export function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value))
  }
  const search = params.toString()
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url
}

/** `promise`, unless `signal` aborts first (then its reason). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

let browserClient: ApiClient | null = null

/** The bodies the server inlined into a landing page (platform/first-screen.ts), if any. */
function firstScreenBodies(): Record<string, unknown> | undefined {
  const value = inlinedData(FIRST_SCREEN_GLOBAL)
  return isRecord(value) ? value : undefined
}

function client(): ApiClient {
  browserClient ??= createApiClient({
    fetch: (input, init) => window.fetch(input, init),
    cookies: browserCookies,
    config: getClientConfig,
    language: () => currentLanguage(),
    isOnline: () => navigator.onLine,
    alert: (text) => window.alert(text),
    // Loaded on first use so this module (and its tests) do not pull antd-mobile in eagerly.
    toast: (text) => inBackground(import('./toast').then(({ showToast }) => showToast(text))),
    now: () => Date.now(),
    osInfo: osInfoHeader(),
    timeoutMs: REQUEST_TIMEOUT_MS,
    firstScreen: firstScreenBodies(),
  })
  return browserClient
}

/** The one way the app calls its services: signed, time-limited, with spec §8 error handling. */
export function request<T = unknown>(options: RequestOptions<T>): Promise<T> {
  return client().request(options)
}

export function requestPage<T = unknown>(options: RequestOptions<Page<T>>): Promise<Page<T>> {
  return client().requestPage(options)
}

/**
 * A landing page's query `initialData` (issue 13): the answer the server inlined for the same call
 * that the query function makes, so the first render already shows it.
 */
export function firstScreenData<T>(options: RequestOptions<T>): () => T | undefined {
  return () => {
    // On the server (app/first-screen-server.tsx) the page is rendered from the answers it inlines.
    if (renderClient) return renderClient.firstScreen(options)
    // Outside a page (unit tests of query options) nothing was inlined: no browser client for it.
    return typeof document === 'undefined' ? undefined : client().firstScreen(options)
  }
}

/**
 * When the inlined answers were made, for the landing queries' `initialDataUpdatedAt`: at the
 * earliest, the server's reuse window before the page's own request. A query then counts them as
 * old as they may be, and refetches once its stale time has passed since then, not since the app
 * started, which on a landing page is after its first screen has painted (ADR 026 §9).
 */
export function firstScreenUpdatedAt(): number {
  return performance.timeOrigin - FIRST_SCREEN_REUSE_MS
}

let renderClient: ApiClient | undefined

/**
 * Renders with `first` answering the landing queries' `initialData` (issue 13: the server renders
 * a landing page's first screen from the answers it inlines into the same page). Synchronous, so
 * one render's answers never reach another's.
 */
export function renderingWith<R>(first: ApiClient, render: () => R): R {
  renderClient = first
  try {
    return render()
  } finally {
    renderClient = undefined
  }
}
