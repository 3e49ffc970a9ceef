import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import fastifyStatic from '@fastify/static'
import {
  CLIENT_CONFIG_GLOBAL,
  type ClientConfig,
  PAGE_CLOCK_TIMING,
} from '@numisma/contracts/client-config'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { COMPRESSION_THRESHOLD } from './compression'
import { APP, dataBlock, firstScreen, loadRenderer, routeLinks } from './first-screen'

const PLACEHOLDER = '<!--numisma-config-->'

/** Inlines the client config so the first paint needs no extra round trip. */
function renderHtml(file: string, config: ClientConfig): string | undefined {
  if (!fs.existsSync(file)) return undefined
  return fs
    .readFileSync(file, 'utf8')
    .replace(PLACEHOLDER, () => dataBlock(CLIENT_CONFIG_GLOBAL, config))
}

/** A rendered page and, once it is big enough to be worth it, its br and gzip bodies (issue 13). */
interface Page {
  html: string
  br?: Buffer
  gzip?: Buffer
}

/**
 * The pages never change while the process runs, so they are compressed once, at the slowest
 * settings, rather than per request: @fastify/compress cannot reach the SPA fallback (a not-found
 * handler is no route) and would spend the same work again on every page load.
 */
function compressed(html: string): Page {
  if (Buffer.byteLength(html) < COMPRESSION_THRESHOLD) return { html }
  return {
    html,
    br: zlib.brotliCompressSync(html, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      },
    }),
    gzip: zlib.gzipSync(html, { level: zlib.constants.Z_BEST_COMPRESSION }),
  }
}

/**
 * A landing page rendered for one visitor (first-screen.ts): compressed on the spot at a cheap
 * setting, since it differs per request; brotli at quality 4 costs about as much as gzip -6.
 */
function compressedNow(html: string, encoding: 'br' | 'gzip' | undefined): Buffer | undefined {
  if (!encoding || Buffer.byteLength(html) < COMPRESSION_THRESHOLD) return undefined
  return encoding === 'br'
    ? zlib.brotliCompressSync(html, {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        },
      })
    : zlib.gzipSync(html, { level: 6 })
}

/** br if the browser takes it at least as gladly as gzip, else gzip, else none (`q=0` refuses). */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined
  const weights = new Map<string, number>()
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim())
    const q = params.find((p) => p.startsWith('q='))
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
  const br = weight('br')
  const gzip = weight('gzip')
  if (br > 0 && br >= gzip) return 'br'
  return gzip > 0 ? 'gzip' : undefined
}

function beforeHeadEnd(html: string, tags: string): string {
  const at = html.lastIndexOf('</head>')
  return at === -1 || tags === '' ? html : `${html.slice(0, at)}${tags}${html.slice(at)}`
}

/** index.html's #root, between its markers (the brand row painted while the app loads). */
const ROOT = /<div id="root">[\s\S]*?<!--\/root-->/

/**
 * A server-rendered first screen in front of an empty #root (ADR 026 §9): the app renders into
 * #root beneath it, and its first page takes it away (apps/web/src/lib/first-screen-paint.ts).
 */
function withRoot(html: string, root: string): string {
  return html.replace(ROOT, () => `<div id="first-screen">${root}</div><div id="root"><!--/root-->`)
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Numisma</title>
<p>The web app is not built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>`

/**
 * Serves the built web app: hashed assets from dist/, index.html for every client route (SPA
 * fallback), passport.html — the separate sign-in app — at /passport, and admin.html — the
 * operator console (ADR 020) — at /admin and every page path under it (its API stays under
 * /svc/main/admin).
 */
export async function serveWebApp(
  app: FastifyInstance,
  distDir: string,
  config: ClientConfig,
  options: { now?: () => number } = {},
): Promise<{ sendIndex(reply: FastifyReply): Promise<FastifyReply> }> {
  // The raw HTML files are never served: only the copies with the config inlined.
  const built = fs.existsSync(path.join(distDir, 'index.html'))
  if (!built) app.log.warn({ distDir }, 'web app not built; serving a notice instead')
  const indexHtml = renderHtml(path.join(distDir, 'index.html'), config) ?? NOT_BUILT
  const links = routeLinks(distDir, indexHtml)
  // The entry loads the app with import() (apps/web/src/main.tsx): its stylesheets go in every
  // page, and its scripts are preloaded in every page but one that comes with its first screen.
  const appLinks = links.get(APP) ?? { scripts: '', styles: '', scriptFiles: [] }
  const bare = beforeHeadEnd(indexHtml, appLinks.styles)
  const index = compressed(beforeHeadEnd(bare, appLinks.scripts))
  const passport = compressed(renderHtml(path.join(distDir, 'passport.html'), config) ?? NOT_BUILT)
  const admin = compressed(renderHtml(path.join(distDir, 'admin.html'), config) ?? NOT_BUILT)

  const now = options.now ?? Date.now
  // The shop's pages carry the server's clock as they leave (ADR 026 §14).
  const clock = () => `${PAGE_CLOCK_TIMING};desc=${now()}`
  const sendHtml = (reply: FastifyReply, page: Page, timing?: string) => {
    if (timing) reply.header('server-timing', timing)
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
    const encoding = preferredEncoding(reply.request.headers['accept-encoding'])
    const body = encoding && page[encoding]
    return body ? reply.header('content-encoding', encoding).send(body) : reply.send(page.html)
  }

  // Issue 13: the landing pages carry their first API answers, main picture and route chunks,
  // and for a visitor without a session their first screen rendered (ADR 026 §9).
  let renderer = built ? await loadRenderer(distDir, app.log) : undefined
  if (built && !renderer) app.log.warn({ distDir }, 'no first-screen renderer in the web build')
  if (renderer && !ROOT.test(indexHtml)) {
    app.log.warn({ distDir }, 'index.html has no <!--/root--> marker: no first screens rendered')
    renderer = undefined
  }
  const first = built ? firstScreen(app, config, links, now, renderer) : undefined
  const sendIndex = async (reply: FastifyReply): Promise<FastifyReply> => {
    const started = process.hrtime.bigint()
    const page = await first?.page(reply.request)
    if (!page) return sendHtml(reply, index, clock())
    const html =
      page.root === undefined
        ? beforeHeadEnd(index.html, page.head)
        : withRoot(beforeHeadEnd(bare, page.head), page.root)
    const encoding = preferredEncoding(reply.request.headers['accept-encoding'])
    const body = compressedNow(html, encoding)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('server-timing', `first-screen;dur=${ms.toFixed(1)}, ${clock()}`)
      .type('text/html; charset=utf-8')
    return body && encoding
      ? reply.header('content-encoding', encoding).send(body)
      : reply.send(html)
  }

  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: false,
      // One route per built file; anything else falls through to the SPA / API 404 handlers.
      wildcard: false,
      // Issue 13: the build writes .br and .gz beside each text file over 1 KB; a browser that
      // takes br (else gzip) gets that file with its Content-Encoding. They are no URLs of their own.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      allowedPath: (pathName) => !/\.(html|br|gz)$/.test(pathName),
      cacheControl: false,
      // Vite fingerprints everything under assets/; other files (icons) may change in place.
      setHeaders(res, file) {
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600',
        )
        // Which body a cache may hand out depends on what the browser accepts.
        res.setHeader('vary', 'accept-encoding')
      },
    })
  }

  app.get('/passport', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, passport))
  app.get('/admin', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, admin))
  app.get('/admin/*', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, admin))
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply))

  return { sendIndex }
}
