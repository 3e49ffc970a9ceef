/**
 * The names the in-app environments agree on (spec §2, DESIGN §7), kept free of zod: the web app
 * reads them on every first load to tell where it runs and where a sign-in goes, and the schemas of
 * native-bridge.ts and wechat.ts load only in the app that needs them.
 */

/** Our native app's user-agent marker, `NumismaApp/<version>` (docs/native-bridge.md). */
export const NATIVE_UA_PATTERN = /\bNumismaApp\/(\d+(?:\.\d+){0,3})\b/

/** The global the native app injects, and the page's receiver of its replies and events. */
export const NATIVE_BRIDGE_GLOBAL = 'NumismaBridge'
export const NATIVE_RECEIVER_GLOBAL = '__numismaBridgeReceive'

/** The scope the guard asks for on an auth route (spec §2 "OAuth authorization with user-info scope"). */
export const WX_OAUTH_SCOPE = 'snsapi_userinfo'

/** The page the platform sends the user back to with `?code=…&state=…` (a route of the web app). */
export const WX_CALLBACK_PATH = '/wx/callback'
