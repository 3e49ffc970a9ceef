import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { COOKIE } from '@numisma/contracts/cookies'
import { HEADER, osInfoHeader, signedHeaders } from '@numisma/contracts/signing'

/**
 * The real server process (`node --import tsx apps/server/src/server.ts`, as `npm start` runs it)
 * and signed HTTP calls to it, for the suites that need processes rather than app.inject: the
 * crash suite (SIGKILL and restart), the multi-process suite (two instances on one database) and
 * the graceful-shutdown suite (SIGTERM).
 */
export const ROOT = path.resolve(import.meta.dirname, '../../../..')

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class ServerProcess {
  private child: ChildProcess | undefined
  private output = ''
  private readonly errors: string[] = []

  /** The port the running (or last) process bound: PORT=0, so each start picks a free one. */
  private port: number | undefined

  /** `env` is the whole environment (PATH and HOME are added): nothing leaks in from the runner. */
  constructor(private readonly env: Record<string, string>) {}

  get baseUrl(): string {
    if (this.port === undefined) throw new Error('the server has not started')
    return `http://127.0.0.1:${this.port}`
  }

  /** Whether the process is alive. */
  get running(): boolean {
    const child = this.child
    return child !== undefined && child.exitCode === null && child.signalCode === null
  }

  /** Starts the process and resolves once it answers /svc/health on the port it logged. */
  async start(timeoutMs = 30_000): Promise<void> {
    this.output = ''
    this.port = undefined
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    child.stdout.on('data', (d: Buffer) => {
      this.output += d.toString()
      for (const line of d.toString().split('\n')) {
        if (/"level":(5|6)0/.test(line)) this.errors.push(line)
      }
    })
    child.stderr.on('data', (d: Buffer) => (this.output += d.toString()))
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited while starting:\n${this.output}`)
      }
      // Logged once it listens, with the port it bound; only then is that port this server's.
      const up = /Numisma is up: http:\/\/localhost:(\d+)/.exec(this.output)
      if (up) {
        this.port = Number(up[1])
        if ((await fetch(`${this.baseUrl}/svc/health`)).ok) return
      }
      await sleep(100)
    }
    throw new Error(`server did not become healthy:\n${this.output}`)
  }

  /**
   * Sends `signal` (SIGKILL: no shutdown hook runs) and waits until the process is gone; resolves
   * with its exit code (null when a signal ended it), or at once when it is not running.
   */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      return child?.exitCode ?? null
    }
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    child.kill(signal)
    return exited
  }

  /** Error-level (and worse) lines logged by every process started so far. */
  get errorLines(): string[] {
    return this.errors
  }

  /** What the current (or last) process wrote, for a failure message. */
  get log(): string {
    return this.output
  }
}

// --- Signed calls -------------------------------------------------------------------------------

/** The public signing configuration (`GET /svc/client-config`'s apps and secret). */
export interface SigningConfig {
  apps: { h5: { id: string; key: string } }
  signSecret: string
}

/** A signed-in user's credentials: the session pair that signs, and the `sid` cookie. */
export interface SessionCredentials {
  userId: string
  id: string
  key: string
  sid: string
  deviceId: string
}

export interface Answer {
  status: number
  body: unknown
}

export async function fetchSigningConfig(baseUrl: string): Promise<SigningConfig> {
  const res = await fetch(`${baseUrl}/svc/client-config`)
  if (!res.ok) throw new Error(`client-config → ${res.status}`)
  return ((await res.json()) as { data: SigningConfig }).data
}

export interface SignedRequest {
  method: 'GET' | 'POST'
  /** The path after `/svc/main`, with any query. */
  path: string
  headers: Record<string, string>
  body?: string
}

/**
 * A request to the main service signed like the web client: a fresh nonce and timestamp unless
 * given. Made apart from sending, so the very same request can be sent again (a replay).
 */
export function signRequest(
  config: SigningConfig,
  method: 'GET' | 'POST',
  pathAfterBase: string,
  options: {
    as?: SessionCredentials | undefined
    body?: unknown
    key?: string | undefined
    deviceId?: string | undefined
    nonce?: string | undefined
  } = {},
): SignedRequest {
  const { as } = options
  const headers: Record<string, string> = signedHeaders({
    method,
    path: pathAfterBase,
    appId: as?.id ?? config.apps.h5.id,
    key: as?.key ?? config.apps.h5.key,
    deviceId: as?.deviceId ?? options.deviceId ?? 'server-process',
    signSecret: config.signSecret,
    osInfo: osInfoHeader(),
    userId: as?.userId,
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  })
  if (as) headers.cookie = `${COOKIE.sid}=${as.sid}`
  if (options.key) headers[HEADER.idempotencyKey] = options.key
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  return {
    method,
    path: pathAfterBase,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  }
}

/** Sends a signed request to one server; a connection that fails rejects (the process is gone). */
export async function sendSigned(baseUrl: string, request: SignedRequest): Promise<Answer> {
  const res = await fetch(`${baseUrl}/svc/main${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  })
  return { status: res.status, body: await res.json() }
}
