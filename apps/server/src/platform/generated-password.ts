import fs from 'node:fs'
import path from 'node:path'

export const GENERATED_ADMIN_PASSWORD_FILE = 'admin-password.txt'

/**
 * The first staff account's generated password, written where only the server's user can read it
 * (mode 0600 in DATA_DIR) rather than into the log, which collectors ship and many people read
 * (ADR 028). Returns the file's path, for the log line.
 */
export function writeGeneratedAdminPassword(dataDir: string, password: string): string {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, GENERATED_ADMIN_PASSWORD_FILE)
  fs.rmSync(file, { force: true })
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' })
  fs.chmodSync(file, 0o600)
  return file
}
