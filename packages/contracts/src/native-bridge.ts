import { z } from 'zod'
import { ShareInfoSchema } from './share'

/**
 * The contract between the shop's pages and our native app (spec §2, DESIGN §7; written up for the
 * app team in docs/native-bridge.md). The app is recognised by `NumismaApp/<version>` in the user
 * agent. It injects `window.NumismaBridge` with one method, `postMessage(json)` — a string, so
 * Android's `@JavascriptInterface` and iOS's `WKScriptMessageHandler` carry it alike — and answers
 * by calling `window.__numismaBridgeReceive(json)` with a reply or an event.
 */
// The marker and the two globals' names are in ./in-app (no zod: every first load reads them).

/** The page's calls (`id` pairs a reply with its call). */
export const NativeCallSchema = z.discriminatedUnion('method', [
  /** The signed-in user's data, or null when signed out of the app. */
  z.object({ id: z.string(), method: z.literal('getUserData') }),
  /**
   * Opens the app's own login screen. Its reply comes when that screen closes, with
   * {@link NativeLoginResult}: signed in (the app also sends `loginStatus`, and the page reloads)
   * or not (the user closed the screen; the page shows that it needs a sign-in).
   */
  z.object({ id: z.string(), method: z.literal('login'), redirect: z.string() }),
  /** The app's share sheet with the page's share info (spec §3). */
  z.object({ id: z.string(), method: z.literal('share'), info: ShareInfoSchema }),
])
export type NativeCall = z.infer<typeof NativeCallSchema>
export type NativeMethod = NativeCall['method']

/**
 * The user data of `getUserData`: the spec §3 cookies the page stores. The app signs in with
 * `POST /passport/login` itself and puts the HttpOnly `sid` cookie of that login into the web
 * view's cookie store; `id`/`key` are that login's pair (DESIGN §3: a key without its `sid` is
 * refused).
 */
export const NativeUserDataSchema = z.object({
  id: z.string().min(1),
  key: z.string().min(1),
  userId: z.string().regex(/^\d+$/),
  display: z.string(),
  mobile: z.string(),
  loginTime: z.string().regex(/^\d+$/),
  agreement: z.literal('1'),
})
export type NativeUserData = z.infer<typeof NativeUserDataSchema>

/** The `login` reply's result, sent when the app's login screen closes. */
export const NativeLoginResultSchema = z.object({ loggedIn: z.boolean() })
export type NativeLoginResult = z.infer<typeof NativeLoginResultSchema>

/** What the app sends the page: a reply to a call, or an event. */
export const NativeMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('reply'),
    id: z.string(),
    ok: z.boolean(),
    /**
     * `getUserData`: NativeUserData or null; `share`: `{ shared: boolean }`; `login`:
     * NativeLoginResult, once the login screen closes.
     */
    result: z.unknown().optional(),
    error: z.string().optional(),
  }),
  /** The app's login state changed (signed in or out natively): the page reloads (spec §2). */
  z.object({ type: z.literal('loginStatus'), loggedIn: z.boolean() }),
])
export type NativeMessage = z.infer<typeof NativeMessageSchema>
