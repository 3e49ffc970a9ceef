import type { AuditEntry } from '@numisma/contracts/staff'

/**
 * The lines that repeat an earlier accepted call with the same Idempotency-Key (same staff member,
 * same route): the server answered them from the first result, so nothing moved twice. Entries
 * come newest first, as the log lists them; only what is loaded is compared.
 */
export function repeatedCalls(entries: readonly AuditEntry[]): Set<number> {
  const accepted = new Set<string>()
  const repeats = new Set<number>()
  for (const entry of [...entries].reverse()) {
    if (entry.idempotencyKey === null) continue
    const key = `${entry.staffId} ${entry.method} ${entry.route} ${entry.idempotencyKey}`
    if (accepted.has(key)) repeats.add(entry.id)
    else if (entry.statusCode < 400) accepted.add(key)
  }
  return repeats
}
