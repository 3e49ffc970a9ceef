/** Time is injected, never read ad hoc (DESIGN §1): soft close and closing are tested with a fake. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

export class FakeClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 10, 21, 2, 0, 0)) {}

  now(): number {
    return this.current
  }

  set(ms: number): void {
    this.current = ms
  }

  advance(ms: number): void {
    this.current += ms
  }
}
