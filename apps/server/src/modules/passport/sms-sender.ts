import type { FastifyBaseLogger } from 'fastify'

/** The SMS gateway, a third party we cannot reach from here (DESIGN §3). */
export interface SmsSender {
  send(mobile: string, text: string): Promise<void>
}

/**
 * Sandbox gateway: logs each message and keeps an outbox, so sign-in works end to end on one
 * machine and tests can read the code a real phone would receive.
 */
export class SandboxSmsSender implements SmsSender {
  readonly outbox: { mobile: string; text: string }[] = []

  constructor(private readonly log?: FastifyBaseLogger) {}

  send(mobile: string, text: string): Promise<void> {
    this.outbox.push({ mobile, text })
    if (this.outbox.length > 1000) this.outbox.shift()
    this.log?.info({ mobile, text }, 'sandbox SMS sent')
    return Promise.resolve()
  }

  lastCodeFor(mobile: string): string | undefined {
    const message = this.outbox.findLast((m) => m.mobile === mobile)
    return message && /(\d{6})/.exec(message.text)?.[1]
  }
}
