import { safeRedirect } from '../../../lib/redirect'

/** Whether a path needs a signed-in user (app/routes' meta; given by app/, which composes features). */
export type NeedsSignIn = (pathname: string) => boolean

/**
 * Where the sign-in page's back control goes without signing in: the wanted page when anyone may
 * see it (a lot whose bid button sent the user here), else home — a page that needs a user would
 * only send them back here.
 */
export function backTarget(redirect: string | null, needsSignIn: NeedsSignIn): string {
  const wanted = safeRedirect(redirect)
  const { pathname } = new URL(wanted, 'https://shop.invalid')
  return needsSignIn(pathname) ? '/' : wanted
}
