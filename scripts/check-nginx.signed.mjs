// Signed calls through nginx, for scripts/check-nginx.sh: the request signature covers the path,
// so a proxy that rewrote it would break every call. Prints one JSON object:
// - main / search: the status and Content-Encoding of a signed list call to each service;
// - replayStatus / replayCode: the very same signed request sent again — nginx's round robin hands
//   it to the other instance, which must refuse it too (nonces shared through Redis).
//   node --import tsx scripts/check-nginx.signed.mjs <https port> <host name>
import https from 'node:https'
import { osInfoHeader, signedHeaders } from '@numisma/contracts/signing'

const [port, name] = process.argv.slice(2)

/** One request to nginx on 127.0.0.1, addressed to `name` (SNI and Host), certificate not checked. */
function request(path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        path,
        servername: name,
        rejectUnauthorized: false,
        headers: { host: `${name}:${port}`, 'accept-encoding': 'br, gzip', ...headers },
      },
      (res) => {
        const chunks = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            encoding: res.headers['content-encoding'] ?? null,
            body: Buffer.concat(chunks),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const config = JSON.parse(
  (await request('/svc/client-config', { 'accept-encoding': '' })).body,
).data

/** A signed GET as the web client makes it: the path after the service's base is what is signed. */
function signed(service, pathAfterBase) {
  const pair = service === 'search' ? config.apps.search : config.apps.h5
  return signedHeaders({
    method: 'GET',
    path: pathAfterBase,
    appId: pair.id,
    key: pair.key,
    deviceId: 'check-nginx',
    signSecret: config.signSecret,
    osInfo: osInfoHeader(),
  })
}

const mainPath = '/special/V1'
const mainHeaders = signed('main', mainPath)
const main = await request(`/svc/main${mainPath}`, mainHeaders)
const searchPath = '/api/search/wechat?type=auction&page=1'
const search = await request(`/svc/search${searchPath}`, signed('search', searchPath))
const replay = await request(`/svc/main${mainPath}`, mainHeaders)
/** The refusal's code: `{code, message}` as every refusal (too small to be compressed). */
function codeOf(body) {
  try {
    return JSON.parse(body.toString()).code ?? null
  } catch {
    return 'unreadable'
  }
}
const replayCode = codeOf(replay.body)

console.log(
  JSON.stringify({
    main: { status: main.status, encoding: main.encoding, bytes: main.body.length },
    search: { status: search.status, encoding: search.encoding, bytes: search.body.length },
    replayStatus: replay.status,
    replayCode,
  }),
)
