/**
 * The reason a collector's socket is closed with (1008) when its session ended: the code a signed
 * request of that session is refused with.
 */
export const CLOSE_REASON_SESSION_ENDED = 'SESSION_INVALID'

/** The session behind a collector's socket, by its `sid` cookie, while it is live. */
export interface SocketSession {
  userId: number
  sessionId: string
}

/**
 * A role's open sockets by the session that opened them, so that a logout closes them (ADR 035):
 * a socket checks its `sid` cookie once, when it opens, and would otherwise keep hearing the
 * user's messages after the session ended. Every instance hears the `session_revoked` event, so
 * the role on each calls {@link revoke}.
 *
 * A socket's lookup may read the session's row just before the logout commits and finish after
 * the event went by: {@link lookUp} notes the revocations that arrive while it runs and answers
 * such a session as ended. The caller must {@link add} the socket in the same turn as the lookup
 * resolves (no `await` in between), so no event can pass between the two.
 */
export class SessionSockets<T> {
  private readonly bySession = new Map<string, Set<T>>()
  /** For each lookup under way, the sessions revoked since it started. */
  private readonly lookups = new Set<Set<string>>()

  /** `find`'s session, or null when there is none or it was revoked while `find` ran. */
  async lookUp(find: () => Promise<SocketSession | null>): Promise<SocketSession | null> {
    const revoked = new Set<string>()
    this.lookups.add(revoked)
    try {
      const session = await find()
      return session && !revoked.has(session.sessionId) ? session : null
    } finally {
      this.lookups.delete(revoked)
    }
  }

  add(sessionId: string, socket: T): void {
    const set = this.bySession.get(sessionId)
    if (set) set.add(socket)
    else this.bySession.set(sessionId, new Set([socket]))
  }

  remove(sessionId: string, socket: T): void {
    const set = this.bySession.get(sessionId)
    if (!set) return
    set.delete(socket)
    if (set.size === 0) this.bySession.delete(sessionId)
  }

  /** The session ended: its sockets, taken out of the index, for the caller to close. */
  revoke(sessionId: string): T[] {
    for (const revoked of this.lookups) revoked.add(sessionId)
    const sockets = [...(this.bySession.get(sessionId) ?? [])]
    this.bySession.delete(sessionId)
    return sockets
  }
}
