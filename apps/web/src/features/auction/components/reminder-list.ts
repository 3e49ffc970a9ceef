/** How many lot notices stand at once; an older one gives way to a newer. */
export const MAX_NOTICES = 3

/**
 * A notice about a lot on whatever page the collector is on, with a link to the lot: an
 * ending-soon reminder for a watched lot, or an outbid notice away from the lot's own page.
 */
export interface LotNotice {
  kind: 'reminder' | 'outbid'
  lotId: number
  text: string
}

const sameNotice = (a: LotNotice, b: LotNotice) => a.kind === b.kind && a.lotId === b.lotId

/**
 * The notices on screen after a push: one of each kind per lot (a reconnect may replay a
 * reminder; a second outbid replaces the first), newest first, at most MAX_NOTICES.
 */
export function addNotice(shown: readonly LotNotice[], notice: LotNotice): LotNotice[] {
  return [notice, ...shown.filter((n) => !sameNotice(n, notice))].slice(0, MAX_NOTICES)
}

export function dismissNotice(shown: readonly LotNotice[], notice: LotNotice): LotNotice[] {
  return shown.filter((n) => !sameNotice(n, notice))
}
