#!/usr/bin/env node
// `npm start` (DESIGN §9). In production (NODE_ENV=production or NUMISMA_ENV=production): build the
// web app and the server bundle, then run the bundle with plain node, so nothing is transpiled
// while serving. Otherwise, as always: build the web app and run the server's TypeScript through
// tsx. The server reads the same two variables the same way (platform/config.ts `runMode`).
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const production =
  process.env.NUMISMA_ENV === 'production' ||
  (process.env.NUMISMA_ENV === undefined && process.env.NODE_ENV === 'production')

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

run('npm', ['run', 'build', '-w', '@numisma/web'])
if (production) run('npm', ['run', 'build', '-w', '@numisma/server'])

const server = production
  ? ['--enable-source-maps', 'apps/server/dist/server.js']
  : ['--import', 'tsx', 'apps/server/src/server.ts']
const child = spawn(process.execPath, server, { cwd: root, stdio: 'inherit' })
// The server shuts down cleanly on these; pass them on and leave with its exit code.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
