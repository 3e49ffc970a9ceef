import { NATIVE_BRIDGE_GLOBAL, NATIVE_RECEIVER_GLOBAL } from '@numisma/contracts/in-app'
import { z } from 'zod'
import {
  NativeLoginResultSchema,
  NativeMessageSchema,
  NativeUserDataSchema,
  type NativeLoginResult,
  type NativeCall,
  type NativeMethod,
  type NativeUserData,
} from '@numisma/contracts/native-bridge'
import type { ShareInfo } from '@numisma/contracts/share'
import { currentInAppEnvironment } from './environment'

/**
 * The page's side of the native bridge (contracts/native-bridge, docs/native-bridge.md): a call is
 * posted as a JSON string with an id, and settles when the app's reply with that id arrives through
 * the receiver global — or rejects after a timeout, so an app that never answers (an old build, a
 * crashed handler) cannot hold the page forever.
 */
export const NATIVE_CALL_TIMEOUT_MS = 10_000
/**
 * `login` answers when the app's login screen closes, after the user's SMS round trip, so it waits
 * longer. An app that never answers still ends in the page's signed-out state, underneath the
 * login screen if it is still open: a later login still reloads the page through `loginStatus`.
 */
export const NATIVE_LOGIN_TIMEOUT_MS = 5 * 60_000

/** What each method's reply carries once checked. */
const RESULT_SCHEMAS = {
  getUserData: NativeUserDataSchema.nullable(),
  login: NativeLoginResultSchema,
  share: z.object({ shared: z.boolean() }),
} satisfies Record<NativeMethod, z.ZodType>

type ResultOf<M extends NativeMethod> = z.infer<(typeof RESULT_SCHEMAS)[M]>
/** A call's fields besides its id and method. */
type ParamsOf<M extends NativeMethod> = Omit<Extract<NativeCall, { method: M }>, 'id' | 'method'>

export class NativeBridgeError extends Error {
  constructor(
    readonly method: NativeMethod,
    readonly reason: 'timeout' | 'refused' | 'malformed',
    detail?: string,
  ) {
    super(`native bridge ${method}: ${reason}${detail ? ` (${detail})` : ''}`)
    this.name = 'NativeBridgeError'
  }
}

export interface NativeBridgeClient {
  call<M extends NativeMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>
  getUserData(): Promise<NativeUserData | null>
  /**
   * Opens the app's login screen; settles when it closes. Signed in: a `loginStatus` event
   * follows and the page reloads.
   */
  login(redirect: string): Promise<NativeLoginResult>
  share(info: ShareInfo): Promise<{ shared: boolean }>
  /** Returns the unsubscribe function. */
  onLoginStatus(listener: (loggedIn: boolean) => void): () => void
}

/** The window as the bridge sees it: the app's global and the page's receiver. */
export type BridgeHost = Record<string, unknown>

interface NativePort {
  postMessage(json: string): void
}

function portOf(host: BridgeHost): NativePort | undefined {
  const port = host[NATIVE_BRIDGE_GLOBAL]
  if (typeof port !== 'object' || port === null || !('postMessage' in port)) return undefined
  const { postMessage } = port
  if (typeof postMessage !== 'function') return undefined
  // Called on its object: Android's injected interface throws when the method is detached.
  return { postMessage: (json) => void postMessage.call(port, json) }
}

export interface NativeBridgeOptions {
  timeoutMs?: number
  newId?: () => string
}

/** A client over `host`'s bridge, or undefined when the app injected none. Installs the receiver. */
export function createNativeBridge(
  host: BridgeHost,
  options: NativeBridgeOptions = {},
): NativeBridgeClient | undefined {
  const found = portOf(host)
  if (!found) return undefined
  const port: NativePort = found
  const timeoutMs = options.timeoutMs ?? NATIVE_CALL_TIMEOUT_MS
  let seq = 0
  const newId = options.newId ?? (() => `${Date.now().toString(36)}-${++seq}`)
  const pending = new Map<
    string,
    (reply: { ok: boolean; result?: unknown; error?: string }) => void
  >()
  const listeners = new Set<(loggedIn: boolean) => void>()

  host[NATIVE_RECEIVER_GLOBAL] = (raw: unknown) => {
    const message = NativeMessageSchema.safeParse(parseJson(raw))
    // A message we cannot read is dropped: its call, if any, times out and says so.
    if (!message.success) return
    const data = message.data
    if (data.type === 'loginStatus') {
      for (const listener of [...listeners]) listener(data.loggedIn)
      return
    }
    const settle = pending.get(data.id)
    pending.delete(data.id)
    settle?.(data)
  }

  function call<M extends NativeMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const id = newId()
    const waitMs = method === 'login' ? Math.max(timeoutMs, NATIVE_LOGIN_TIMEOUT_MS) : timeoutMs
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(new NativeBridgeError(method, 'timeout'))
      }, waitMs)
      pending.set(id, (reply) => {
        clearTimeout(timer)
        if (!reply.ok) {
          reject(new NativeBridgeError(method, 'refused', reply.error))
          return
        }
        const result = RESULT_SCHEMAS[method].safeParse(reply.result)
        if (result.success) resolve(result.data as ResultOf<M>)
        else reject(new NativeBridgeError(method, 'malformed', result.error.message))
      })
      try {
        port.postMessage(JSON.stringify({ ...params, id, method }))
      } catch (error) {
        clearTimeout(timer)
        pending.delete(id)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  }

  return {
    call,
    getUserData: () => call('getUserData', {}),
    login: (redirect) => call('login', { redirect }),
    share: (info) => call('share', { info }),
    onLoginStatus: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function parseJson(raw: unknown): unknown {
  // The contract says a JSON string; an app that passes the object itself is read as well.
  if (typeof raw !== 'string') return raw
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return undefined
  }
}

let shared: NativeBridgeClient | undefined

/** The page's one bridge client; undefined outside the native app or when its global is missing. */
export function nativeBridge(): NativeBridgeClient | undefined {
  if (currentInAppEnvironment() !== 'native') return undefined
  shared ??= createNativeBridge(window as unknown as BridgeHost)
  return shared
}

/**
 * The app's share sheet for helper code that only shares. Undefined (and nothing posted) outside
 * the native app; rejects with NativeBridgeError when the app refuses or does not answer.
 */
export async function nativeShare(info: ShareInfo): Promise<{ shared: boolean } | undefined> {
  const bridge = nativeBridge()
  return bridge ? bridge.share(info) : undefined
}
