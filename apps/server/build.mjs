#!/usr/bin/env node
// The production server: one ES module, apps/server/dist/server.js, run by plain `node` (no
// transpiling at run time). The workspace packages (@numisma/*) export TypeScript sources, so they
// are bundled in; every other package stays an import from node_modules (native addons such as
// better-sqlite3 and argon2 cannot be bundled, and pino loads its transports by name).
// Usage: node apps/server/build.mjs [--outdir <dir>]   (default apps/server/dist)
import path from 'node:path'
import { parseArgs } from 'node:util'
import { build } from 'esbuild'

const { values } = parseArgs({ options: { outdir: { type: 'string' } } })
const serverRoot = import.meta.dirname
const outdir = path.resolve(values.outdir ?? path.join(serverRoot, 'dist'))

/** Bare imports are external, except our own workspace packages. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@numisma/') ? undefined : { path: args.path, external: true },
    )
  },
}

const result = await build({
  entryPoints: [path.join(serverRoot, 'src', 'server.ts')],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
  plugins: [externalPackages],
})
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0)
console.log(
  `server bundle: ${path.relative(process.cwd(), outdir)}/server.js (${Math.round(bytes / 1024)} KiB)`,
)
