/**
 * Runs `work` every `intervalMs`, never two runs at once, with every failure reported to
 * `onError` (a background job must not end the process). `stop` waits for a run in progress.
 * The timer is unref'd so a job never keeps a process alive on its own.
 */
export class IntervalJob {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(intervalMs: number): void {
    if (this.timer) return
    this.timer = setInterval(() => this.tick(), intervalMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.running
  }

  private tick(): void {
    if (this.running) return
    this.running = this.work()
      .then(() => undefined, this.onError)
      .finally(() => (this.running = undefined))
  }
}
