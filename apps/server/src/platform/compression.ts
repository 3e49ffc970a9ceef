import fastifyCompress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

/** Below this many bytes a response goes out as it is: the encoding would cost more than it saves. */
export const COMPRESSION_THRESHOLD = 1024

/**
 * Compresses responses on the fly (issue 13): br when the browser takes it, else gzip, for text
 * types over 1 KB — JSON calls, the HTML pages web-app.ts renders, CSV exports. Registered before
 * any route, since the plugin hooks each route as it is added.
 *
 * What it leaves alone: responses that already carry a Content-Encoding (the web app's assets,
 * precompressed at build time and served by @fastify/static with `preCompressed`); types mime-db
 * marks incompressible (jpeg, png); small buffered bodies, which keep their content-length; and
 * WebSocket upgrades, which never reach onSend. Request bodies are not decompressed: no client of
 * ours sends them encoded, so the request path stays exactly as it was.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
  })
}
