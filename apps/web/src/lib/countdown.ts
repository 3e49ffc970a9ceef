/**
 * Countdown texts and phases for lots and specials. Pure: "now" is always server time passed in.
 */
export type CountdownPhase = 'upcoming' | 'running' | 'ended'

export interface Timed {
  startsAt: string
  endsAt: string
}

const parse = (iso: string): number => {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? 0 : ms
}

/**
 * Before the start: upcoming (count down to the start). Until the end: running (count down to
 * the end). After it: ended. A status the server already settled (`closed`) wins over the clock.
 */
export function countdownPhase(item: Timed, now: number, closed = false): CountdownPhase {
  if (closed) return 'ended'
  if (now < parse(item.startsAt)) return 'upcoming'
  if (now < parse(item.endsAt)) return 'running'
  return 'ended'
}

/** Milliseconds to the phase's target (start or end); 0 once ended. */
export function countdownRemaining(item: Timed, now: number, phase: CountdownPhase): number {
  switch (phase) {
    case 'upcoming':
      return Math.max(0, parse(item.startsAt) - now)
    case 'running':
      return Math.max(0, parse(item.endsAt) - now)
    case 'ended':
      return 0
  }
}

export interface DurationParts {
  days: number
  hours: number
  minutes: number
  seconds: number
}

/** Whole seconds, rounded up, so "00:00:01" shows until the very last moment. */
export function splitDuration(ms: number): DurationParts {
  const total = Math.max(0, Math.ceil(ms / 1000))
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  }
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** "03:12:45", or with days first: "2天 03:12:45" (zh) / "2d 03:12:45" (en). */
export function formatCountdown(ms: number, locale: 'zh' | 'en' = 'zh'): string {
  const { days, hours, minutes, seconds } = splitDuration(ms)
  const clock = `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`
  if (days === 0) return clock
  return `${days}${locale === 'zh' ? '天' : 'd'} ${clock}`
}

/** The last minutes of a lot, shown in the urgent colour (the soft-close window by default). */
export function isUrgent(ms: number, windowMs = 5 * 60_000): boolean {
  return ms > 0 && ms <= windowMs
}
