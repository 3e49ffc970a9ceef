import { request } from '../../../lib/api-client'
import { clearLoginCookies } from '../../../lib/cookies'

/**
 * Revokes the session on the server (which also clears the cookies it set) and forgets the login
 * locally whatever the server says: a user asking to sign out is signed out.
 */
export async function logout(): Promise<void> {
  try {
    await request({
      method: 'POST',
      path: '/passport/logout',
      defaultError: 'REQUEST_FAILED',
      silent: true,
    })
  } catch {
    // Already signed out on the server, offline, …: the local login goes anyway.
  } finally {
    clearLoginCookies()
  }
}
