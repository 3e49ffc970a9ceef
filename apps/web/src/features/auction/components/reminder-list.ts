import type { PushReminder } from '@numisma/contracts/push'

/** How many ending-soon notices stand at once; an older one gives way to a newer. */
export const MAX_REMINDERS = 3

/**
 * The ending-soon notices on screen after a reminder push: one per lot (the server sends each
 * once, but a reconnect may replay it), newest first, at most MAX_REMINDERS.
 */
export function addReminder(shown: readonly PushReminder[], message: PushReminder): PushReminder[] {
  return [message, ...shown.filter((r) => r.lotId !== message.lotId)].slice(0, MAX_REMINDERS)
}

export function dismissReminder(shown: readonly PushReminder[], lotId: number): PushReminder[] {
  return shown.filter((r) => r.lotId !== lotId)
}
