/**
 * Which events of one key to log: the first, then at most one per interval. A refused client
 * retries in a loop, and a line per refusal would let it fill the logs; a line per address and
 * minute still shows who is refused and roughly how often.
 */
export class LogThrottle {
  /** Per key, when its last line was logged and how many events were left out since; oldest first. */
  private readonly keys = new Map<string, { loggedAt: number; skipped: number }>()

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * Null when this event is not to be logged; otherwise how many of the key's events were left out
   * since its last line (0 once a quiet key's record has been forgotten).
   */
  take(key: string): number | null {
    const now = this.now()
    const entry = this.keys.get(key)
    if (entry && now - entry.loggedAt < this.intervalMs) {
      entry.skipped += 1
      return null
    }
    // Re-inserted, so the map stays ordered by the time of each key's last line.
    this.keys.delete(key)
    this.keys.set(key, { loggedAt: now, skipped: 0 })
    this.forgetBefore(now - this.intervalMs)
    return entry?.skipped ?? 0
  }

  /** Memory stays bounded by the keys logged within one interval. */
  private forgetBefore(cutoff: number): void {
    for (const [key, entry] of this.keys) {
      if (entry.loggedAt > cutoff) return
      this.keys.delete(key)
    }
  }
}
