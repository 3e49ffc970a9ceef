import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * deploy/nginx/numisma.conf in front of two real instances (scripts/check-nginx.sh): TLS, the
 * server's own compression, signed paths, sockets, body limits, and a rolling restart of both
 * instances under traffic without a 5xx. In the e2e project because it runs after the web build,
 * so the page and asset checks run too. Without nginx it skips loudly; REQUIRE_NGINX=1 (CI)
 * makes that a failure.
 */
const root = path.resolve(import.meta.dirname, '..')
const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((file) =>
  fs.existsSync(file),
)
const requireNginx = process.env.REQUIRE_NGINX === '1'

if (!nginx && !requireNginx) {
  console.warn(
    `\n${'*'.repeat(78)}\n*** No nginx: e2e/nginx.test.ts (scripts/check-nginx.sh) SKIPPED. ` +
      `apt-get install -y nginx-light\n${'*'.repeat(78)}\n`,
  )
}

function runCheck(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['scripts/check-nginx.sh'], {
      cwd: root,
      // nginx lives in sbin, which a non-root PATH may lack.
      env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/usr/local/sbin` },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output }))
  })
}

describe.skipIf(!nginx && !requireNginx)('nginx in front of two instances', () => {
  it('passes scripts/check-nginx.sh', { timeout: 300_000 }, async () => {
    if (!nginx)
      throw new Error('REQUIRE_NGINX=1 but nginx is not installed (apt-get install -y nginx-light)')
    const { code, output } = await runCheck()
    // The script's own lines say which check failed; a bare exit code would not.
    if (code !== 0) throw new Error(`scripts/check-nginx.sh exited ${code}:\n${output}`)
    expect(output).toContain('all nginx checks passed')
    // The page checks need the web build this project makes first; without it they are skipped.
    expect(output).not.toContain('SKIPPED')
  })
})
