import { describe, expect, it } from 'vitest'
import { type SocketSession, SessionSockets } from './session-sockets'

/** A lookup the test finishes by hand, as a query still running when a logout's event arrives. */
function heldLookup(session: SocketSession | null) {
  let finish: () => void = () => undefined
  const found = new Promise<SocketSession | null>((resolve) => {
    finish = () => resolve(session)
  })
  return { find: () => found, finish: () => finish() }
}

describe('SessionSockets', () => {
  it('gives a revoked session its sockets once, and leaves other sessions’ alone', () => {
    const sockets = new SessionSockets<string>()
    sockets.add('s_a', 'push-a')
    sockets.add('s_a', 'chat-a')
    sockets.add('s_b', 'push-b')
    expect(sockets.revoke('s_a')).toEqual(['push-a', 'chat-a'])
    expect(sockets.revoke('s_a')).toEqual([])
    sockets.remove('s_b', 'push-b')
    expect(sockets.revoke('s_b')).toEqual([])
  })

  it('answers a session revoked while its lookup ran as ended', async () => {
    const sockets = new SessionSockets<string>()
    const lookup = heldLookup({ userId: 7, sessionId: 's_a' })
    const answer = sockets.lookUp(lookup.find)
    // The row was read before the logout committed; the event passes before the lookup ends.
    sockets.revoke('s_a')
    lookup.finish()
    expect(await answer).toBeNull()
  })

  it('is not misled by another session’s revocation, nor by one before the lookup', async () => {
    const sockets = new SessionSockets<string>()
    sockets.revoke('s_a')
    const lookup = heldLookup({ userId: 7, sessionId: 's_a' })
    const answer = sockets.lookUp(lookup.find)
    sockets.revoke('s_b')
    lookup.finish()
    expect(await answer).toEqual({ userId: 7, sessionId: 's_a' })
  })

  it('passes a failed lookup’s error on', async () => {
    const sockets = new SessionSockets<string>()
    await expect(sockets.lookUp(() => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(sockets.revoke('s_a')).toEqual([])
  })
})
