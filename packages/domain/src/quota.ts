/**
 * Bidding quota (竞买额度, DESIGN §4): a user's exposure — for each open lot the larger of the price
 * they lead at and their active proxy maximum, plus unpaid won orders — may not exceed the deposit
 * times a multiplier (10 by default).
 */
export const DEFAULT_QUOTA_MULTIPLIER = 10

export interface LotExposure {
  lotId: number
  /** Price the user leads at on this lot, else 0. */
  leadingAt: number
  /** The user's active proxy maximum on this lot, else 0. */
  proxyMax: number
}

export const lotExposure = (e: LotExposure): number => Math.max(e.leadingAt, e.proxyMax)

export interface QuotaInput {
  deposit: number
  multiplier?: number
  lots: LotExposure[]
  unpaidOrders: number
}

export function exposure(input: Pick<QuotaInput, 'lots' | 'unpaidOrders'>): number {
  return input.lots.reduce((sum, e) => sum + lotExposure(e), 0) + input.unpaidOrders
}

export function quotaLimit(deposit: number, multiplier = DEFAULT_QUOTA_MULTIPLIER): number {
  return deposit * multiplier
}

/**
 * Whether committing `commitment` on `lotId` (a direct amount or a proxy maximum) keeps the user
 * within quota. The lot's current exposure is replaced, not added to.
 */
export function withinQuota(input: QuotaInput, lotId: number, commitment: number): boolean {
  const others = input.lots.filter((e) => e.lotId !== lotId)
  const current = input.lots.find((e) => e.lotId === lotId)
  const onLot = Math.max(commitment, current ? lotExposure(current) : 0)
  return (
    exposure({ lots: others, unpaidOrders: input.unpaidOrders }) + onLot <=
    quotaLimit(input.deposit, input.multiplier)
  )
}

/**
 * What a user's overdue won lots (DESIGN §4) hold of the deposit: staff may take each one's hammer
 * price from it (the handling fee is not taken), so the sum of their hammers, up to the whole
 * deposit, is spoken for. `total` is what those orders count as exposure (hammer + fee).
 */
export interface OverdueClaim {
  hammer: number
  total: number
}

/** The part of the deposit the overdue lots' forfeits would take: their hammers, up to all of it. */
export function overdueClaim(deposit: number, overdue: OverdueClaim | undefined): number {
  return Math.max(0, Math.min(overdue?.hammer ?? 0, deposit))
}

/**
 * The deposit exposure leaves free (DESIGN §4): what may move back to the balance or be withdrawn
 * while the quota still covers the exposure — the deposit less the least deposit whose quota is
 * at least the exposure. Never negative (a forfeit can leave less deposit than the exposure needs).
 *
 * With overdue lots, what their forfeits would take is held too: what leaves must also leave the
 * claim in the deposit and, once it is taken (those orders then no longer count as exposure),
 * still cover the rest of the exposure. This one rule judges every way deposit leaves — the move
 * back to the balance and a withdrawal — so neither can take what the other refuses.
 */
export function freeDeposit(input: {
  deposit: number
  exposure: number
  multiplier?: number
  overdue?: OverdueClaim
}): number {
  const multiplier = input.multiplier ?? DEFAULT_QUOTA_MULTIPLIER
  const needed = (exposure: number) => Math.ceil(Math.max(0, exposure) / multiplier)
  let free = input.deposit - needed(input.exposure)
  const claim = overdueClaim(input.deposit, input.overdue)
  if (input.overdue && input.overdue.hammer > 0) {
    const afterForfeit = input.deposit - claim - needed(input.exposure - input.overdue.total)
    free = Math.min(free, afterForfeit)
  }
  return Math.max(0, free)
}

/** What DEPOSIT_IN_USE tells the user: what is free, and why no more is. */
export interface DepositInUse {
  free: number
  deposit: number
  exposure: number
  /** Present when overdue won lots hold part of the deposit. */
  overdue?: true
  overdueClaim?: number
}

/**
 * Why `amount` of deposit may not leave (back to the balance or withdrawn), as DEPOSIT_IN_USE's
 * details, or null when it may: every way out judges it by `freeDeposit`, and says so alike.
 */
export function depositInUse(
  held: Parameters<typeof freeDeposit>[0],
  amount: number,
): DepositInUse | null {
  const free = freeDeposit(held)
  if (amount <= free) return null
  return {
    free,
    deposit: held.deposit,
    exposure: held.exposure,
    ...(held.overdue && held.overdue.hammer > 0
      ? { overdue: true as const, overdueClaim: overdueClaim(held.deposit, held.overdue) }
      : {}),
  }
}
