import type { SalesSpecial } from '@numisma/contracts/staff-sales'

/** A special's real end: its last lot's close (stagger and soft-close extensions included). */
export const specialEnd = (special: Pick<SalesSpecial, 'endsAt' | 'lastLotEndsAt'>): string =>
  special.lastLotEndsAt ?? special.endsAt

/**
 * Whether the specials list is behind a fresher read of one special (its state or end moved, or
 * it is missing), so the picker should read the list again.
 */
export function listIsBehind(
  list: readonly SalesSpecial[] | undefined,
  special: SalesSpecial | undefined,
): boolean {
  if (!list || !special) return false
  const listed = list.find((s) => s.id === special.id)
  return (
    !listed ||
    listed.state !== special.state ||
    specialEnd(listed) !== specialEnd(special) ||
    listed.lotCount !== special.lotCount
  )
}
