/**
 * The status a lot shows (DESIGN §9: preview, live, sold, unsold). Until the closing sweeper has
 * recorded an outcome, a lot past its end shows the outcome the closing rule will give it
 * (DESIGN §4: a leader at or above the reserve → sold, otherwise unsold), so a reader never sees a
 * "live" lot that can no longer take bids.
 */
export type LotStatus = 'preview' | 'live' | 'sold' | 'unsold'

export interface LotTiming {
  /** 'open' until closed, then 'sold' or 'unsold'. */
  status: string
  startsAt: number
  endsAt: number
  price: number | null
  leaderId: number | null
  reservePrice: number | null
}

export function closingOutcome(
  lot: Pick<LotTiming, 'price' | 'leaderId' | 'reservePrice'>,
): 'sold' | 'unsold' {
  const reserveMet = lot.reservePrice === null || (lot.price ?? 0) >= lot.reservePrice
  return lot.leaderId !== null && lot.price !== null && reserveMet ? 'sold' : 'unsold'
}

export function lotStatus(lot: LotTiming, now: number): LotStatus {
  if (lot.status === 'sold' || lot.status === 'unsold') return lot.status
  if (now < lot.startsAt) return 'preview'
  if (now < lot.endsAt) return 'live'
  return closingOutcome(lot)
}

export function reserveMet(lot: Pick<LotTiming, 'price' | 'reservePrice'>): boolean {
  return lot.reservePrice === null || (lot.price !== null && lot.price >= lot.reservePrice)
}
