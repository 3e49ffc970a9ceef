/**
 * One chosen photo still on its way into the field's value: its place is fixed when it is chosen
 * (selection order); `url` is null until its upload finishes.
 */
export interface PhotoSlot {
  uid: string
  name: string
  url: string | null
}

/** The slots with the one `uid` filled by its uploaded photo's URL. */
export function fillSlot(slots: readonly PhotoSlot[], uid: string, url: string): PhotoSlot[] {
  return slots.map((slot) => (slot.uid === uid ? { ...slot, url } : slot))
}

/** The slots without the one `uid` (its upload failed). */
export function dropSlot(slots: readonly PhotoSlot[], uid: string): PhotoSlot[] {
  return slots.filter((slot) => slot.uid !== uid)
}

/**
 * Moves the finished slots at the head of `slots` into `urls`, in order, and keeps the rest: a
 * photo that finishes before one chosen earlier waits behind it, so uploads finishing out of
 * order never change the order the files were chosen in (the first one is the cover).
 */
export function settleSlots(
  urls: readonly string[],
  slots: readonly PhotoSlot[],
  max: number,
): { urls: string[]; slots: PhotoSlot[]; moved: number } {
  let moved = 0
  while (moved < slots.length && slots[moved]!.url !== null) moved++
  const joined = slots.slice(0, moved).map((slot) => slot.url!)
  return { urls: [...urls, ...joined].slice(0, max), slots: slots.slice(moved), moved }
}

/**
 * Whether the file at `indexInPick` of one pick still fits, with `taken` photos already in the
 * field (saved ones and ones on their way).
 */
export function fitsInField(taken: number, indexInPick: number, max: number): boolean {
  return taken + Math.max(indexInPick, 0) < max
}
