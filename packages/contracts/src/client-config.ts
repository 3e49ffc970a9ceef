import { z } from 'zod'

/** Public, anonymous client configuration (DESIGN §9): inlined into the HTML and served unsigned. */
export const AppPairSchema = z.object({ id: z.string(), key: z.string() })

export const ClientConfigSchema = z.object({
  env: z.enum(['development', 'production']),
  services: z.object({ main: z.string(), search: z.string(), push: z.string() }),
  apps: z.object({ h5: AppPairSchema, search: AppPairSchema }),
  signSecret: z.string(),
  /**
   * The messaging platform's public side (contracts/wechat): the official account's app id and its
   * OAuth authorize page (the sandbox's on this server outside production); null when not set up.
   */
  wechat: z.object({ appId: z.string(), authorizeUrl: z.string() }).nullable(),
  /** The customer-service chat's agent, the widget's default peer (spec §3). */
  chat: z.object({ agentId: z.string() }),
})
export type ClientConfig = z.infer<typeof ClientConfigSchema>

/** Name of the global the server inlines into index.html and passport.html. */
export const CLIENT_CONFIG_GLOBAL = '__NUMISMA_CONFIG__'

/**
 * Name of the global the server inlines into a landing page's index.html (issue 13): the JSON
 * bodies of the GET calls that page makes on its first render, keyed by the URL the web client
 * fetches (service base, path, query), for visitors without a session.
 */
export const FIRST_SCREEN_GLOBAL = '__NUMISMA_FIRST__'
/** How long the server reuses an inlined answer that does not move by the second. */
export const FIRST_SCREEN_REUSE_MS = 3_000
/**
 * The id of the data block listing the scripts a page whose first screen came rendered by the
 * server needs next (the app's and its route's): the entry preloads them all at once after the
 * first paint (issue 13, ADR 026 §9).
 */
export const FIRST_SCREEN_SCRIPTS = '__NUMISMA_SCRIPTS__'
/**
 * The shop's pages name the server's clock in their `Server-Timing` header as they are sent
 * (`clock;desc=<epoch ms>`): the app's first clock offset is timed over the page's own request, so
 * a landing page makes no call for the time before its first countdown (ADR 026 §14).
 */
export const PAGE_CLOCK_TIMING = 'clock'
