/** Masks a display name in public bid and purchase records and push messages: 藏友8000 → 藏***0. */
export function maskBidder(display: string): string {
  const chars = Array.from(display)
  if (chars.length <= 1) return `${chars[0] ?? ''}***`
  return `${chars[0]}***${chars[chars.length - 1]}`
}
