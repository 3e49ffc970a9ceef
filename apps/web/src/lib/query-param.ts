/** A positive integer id from a query parameter (spec §2: details travel as query parameters). */
export function positiveId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}
