import { createHash } from 'node:crypto'

/**
 * A short name for one shop's deployment in a Redis it may share with others (staging beside
 * production, parallel test runs): instances belong together exactly when they use the same
 * database. Who connects and with what password does not make it another database, so only the
 * URL's protocol, host and path count; a SQLite file is its path.
 */
export function deploymentTag(database: { url?: string; sqliteFile?: string }): string {
  let where = database.sqliteFile ?? database.url ?? ''
  try {
    const url = new URL(where)
    where = `${url.protocol}//${url.host}${url.pathname}`
  } catch {
    // A file path.
  }
  return createHash('sha256').update(where).digest('hex').slice(0, 12)
}
