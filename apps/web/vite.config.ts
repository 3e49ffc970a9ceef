import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { firstLoadChunks } from './first-load-chunks'
import { eagerCompile } from './eager-compile'

const SERVER = 'http://127.0.0.1:8080'

/**
 * antd-mobile's overlays render through rc-util's legacy ReactDOM.render; React 19 has none. Its
 * module resolves to ours, the same functions on createRoot (src/lib/antd-render.ts, ADR 026 §13).
 */
const resolve = {
  dedupe: ['react', 'react-dom'],
  alias: [
    {
      find: /^rc-util\/lib\/React\/render$/,
      replacement: fileURLToPath(new URL('./src/lib/antd-render.ts', import.meta.url)),
    },
  ],
}

/** In dev, serve the sign-in app at /passport and the console at /admin like the server does. */
function passportRoute(): Plugin {
  const rewrite = (url: string | undefined): string | undefined =>
    url && /^\/passport(?:[/?#]|$)/.test(url)
      ? url.replace(/^\/passport\/?/, '/passport.html')
      : url && /^\/admin(?:[/?#]|$)/.test(url)
        ? // The operator console (ADR 020): every /admin page path is admin.html.
          url.replace(/^\/admin[^?#]*/, '/admin.html')
        : url
  return {
    name: 'numisma-passport-route',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        req.url = rewrite(req.url)
        next()
      })
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, _res, next) => {
        req.url = rewrite(req.url)
        next()
      })
    },
  }
}

/**
 * The API behind the dev server. The push socket is listed first (the first matching entry
 * proxies an upgrade) and keeps the browser's Host, so Host and Origin name the same page and the
 * server's same-host check passes, also for a phone on the LAN (http://192.168.x.y:5173). Origin
 * is not rewritten: a foreign page's socket must still be refused.
 */
const devProxy = {
  '/svc/push': { target: SERVER, ws: true },
  '/svc': { target: SERVER, changeOrigin: true, ws: true },
}

/**
 * The server's renderer of landing pages' first screens (app/first-screen-server.tsx, ADR 026 §9), built
 * after the client into dist/.ssr, which is never served (a dot folder, like dist/.vite). One file
 * with its dependencies bundled in: its CSS modules get the same class names as the client's, and
 * the server needs no web dependency at run time.
 */
const ssrBuild = defineConfig({
  plugins: [react()],
  resolve,
  ssr: { noExternal: true, target: 'node' },
  // React's production build whatever NODE_ENV the server runs with.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    ssr: fileURLToPath(new URL('./src/app/first-screen-server.tsx', import.meta.url)),
    outDir: 'dist/.ssr',
    emptyOutDir: false,
    copyPublicDir: false,
    rollupOptions: { output: { entryFileNames: 'first-screen.js' } },
  },
})

const clientBuild = defineConfig({
  plugins: [
    react(),
    passportRoute(),
    // React, React DOM and the scheduler compiled off the main thread as they stream in (issue 13).
    eagerCompile(['framework']),
    // Issue 13: .br and .gz beside every text asset over 1 KB, served by @fastify/static's
    // preCompressed (apps/server/src/platform/web-app.ts). Build-time, so the slowest settings.
    compression({
      include: /\.(js|mjs|css|svg|json|html)$/,
      exclude: /(^|\/)\.vite\//,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  // npm hoists React 18 to the repo root for antd-mobile's peer range while this app has React 19
  // in its own node_modules; one copy of React must serve every package.
  resolve,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: what each entry and route chunk loads, read by the bundle budgets.
    manifest: true,
    rollupOptions: {
      // Schema construction (`z.object(…)` in contracts) has no side effects: unused schemas are
      // dropped, so a page that only needs the error catalogue does not ship zod.
      treeshake: { manualPureFunctions: ['z'] },
      // A few chunks for the pages collectors land on (first-load-chunks.ts, ADR 026).
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: firstLoadChunks() }],
        },
      },
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        passport: fileURLToPath(new URL('./passport.html', import.meta.url)),
        // The operator console (ADR 020): its own entry, so antd 5 never reaches the shop's bundle.
        admin: fileURLToPath(new URL('./admin.html', import.meta.url)),
      },
    },
  },
  server: { host: true, proxy: devProxy },
  preview: { proxy: devProxy },
})

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrBuild : clientBuild))
