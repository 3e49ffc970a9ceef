/**
 * The push socket's timings and close codes (DESIGN §4 "Realtime"), apart from its messages' schemas
 * in ./push: the web app's socket code runs on the first load, which does not load zod (issue 13).
 */

/** What the client quietly waits before a ping, and how long for any answer after it. */
export const PUSH_QUIET_MS = 25_000
export const PUSH_ANSWER_MS = 10_000

/** WebSocket close code 1008 (policy violation): the server closed a socket for abuse. */
export const PUSH_CLOSE_POLICY = 1008

/**
 * WebSocket close code 1012 (Service Restart): the instance is shutting down (ADR 032), for the
 * push socket and the chat sockets alike. The close reason is JSON `{"retryAfterMs": n}`: the
 * server spreads n over {@link RESTART_RETRY_MIN_MS}…{@link RESTART_RETRY_MAX_MS} per socket and
 * the client waits n plus a jitter of its own before reconnecting, so thousands of sockets closed
 * together do not all come back in the same millisecond.
 */
export const PUSH_CLOSE_RESTART = 1012
export const RESTART_RETRY_MIN_MS = 500
export const RESTART_RETRY_MAX_MS = 15_000

/** The wait a 1012 close reason asks for; undefined when it carries none (or a malformed one). */
export function restartRetryAfterMs(reason: string): number | undefined {
  try {
    const hint = JSON.parse(reason) as { retryAfterMs?: unknown }
    const ms = hint?.retryAfterMs
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return undefined
    return Math.min(ms, RESTART_RETRY_MAX_MS)
  } catch {
    return undefined
  }
}
