import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import { CLIENT_CONFIG_GLOBAL, type ClientConfig } from '@numisma/contracts/client-config'
import type { FastifyInstance, FastifyReply } from 'fastify'

const PLACEHOLDER = '<!--numisma-config-->'

/** Inlines the client config so the first paint needs no extra round trip. */
function renderHtml(file: string, config: ClientConfig): string | undefined {
  if (!fs.existsSync(file)) return undefined
  const json = JSON.stringify(config).replace(/</g, '\\u003c')
  return fs
    .readFileSync(file, 'utf8')
    .replace(PLACEHOLDER, `<script>window.${CLIENT_CONFIG_GLOBAL}=${json}</script>`)
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
): Promise<{ sendIndex(reply: FastifyReply): FastifyReply }> {
  // The raw HTML files are never served: only the copies with the config inlined.
  const built = fs.existsSync(path.join(distDir, 'index.html'))
  if (!built) app.log.warn({ distDir }, 'web app not built; serving a notice instead')
  const index = renderHtml(path.join(distDir, 'index.html'), config) ?? NOT_BUILT
  const passport = renderHtml(path.join(distDir, 'passport.html'), config) ?? NOT_BUILT
  const admin = renderHtml(path.join(distDir, 'admin.html'), config) ?? NOT_BUILT

  const sendHtml = (reply: FastifyReply, html: string) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html)

  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      index: false,
      // One route per built file; anything else falls through to the SPA / API 404 handlers.
      wildcard: false,
      allowedPath: (pathName) => !pathName.endsWith('.html'),
      cacheControl: false,
      // Vite fingerprints everything under assets/; other files (icons) may change in place.
      setHeaders(res, file) {
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600',
        )
      },
    })
  }

  app.get('/passport', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, passport))
  app.get('/admin', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, admin))
  app.get('/admin/*', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, admin))
  app.get('/', { schema: { hide: true } }, (_req, reply) => sendHtml(reply, index))

  return { sendIndex: (reply) => sendHtml(reply, index) }
}
