/**
 * Server-time correction (DESIGN §2: countdowns use server time, never the phone's clock alone).
 * The server's timestamp is taken to be read halfway through the round trip, so the offset is
 * server time minus the local midpoint of the request.
 */
export interface ClockSample {
  /** Local Date.now() when the request was sent. */
  sentAt: number
  /** Local Date.now() when the answer arrived. */
  receivedAt: number
  /** The server's epoch milliseconds from GET /pub/@time. */
  serverTimestamp: number
}

export function clockOffset({ sentAt, receivedAt, serverTimestamp }: ClockSample): number {
  const roundTrip = Math.max(0, receivedAt - sentAt)
  return Math.round(serverTimestamp - (sentAt + roundTrip / 2))
}

/** Server "now" from the local clock and a known offset. */
export function serverNow(offset: number, localNow: number = Date.now()): number {
  return localNow + offset
}
